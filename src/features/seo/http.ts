/**
 * The SEO wing's operations (extension E12): GET /api/v1/slugs/{kind}/{slug}, a slug (current or
 * old) to its entity and current slug.
 */
import Type from 'typebox';
import { keyedOperation, sendDetail } from '../../http/operation.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import type { SlugKind } from './model.js';
import { resolveSlug } from './read.js';
import { SlugParams } from './schemas.js';

export const SLUG_NOT_FOUND = 'Slug not found';

export const resolveSlugOperation = keyedOperation({
  operationId: 'resolve_slug',
  summary: 'An offer or investment by its slug',
  description:
    'The entity a slug names, with its current slug. Every slug an entity ever had keeps resolving: when `slug` in the ' +
    'answer differs from the one asked for, the page moved (a website answers 301 to the current URL). An unknown slug, ' +
    'or one of an entity you do not see (an inactive offer, out of your website\'s scope): 404.',
  tags: ['seo'],
  params: SlugParams,
  responses: {
    200: { description: 'The entity and its current slug', content: { 'application/json': { schema: Type.Ref('Slug') } } },
    ...errorResponses(SLUG_NOT_FOUND),
  },
  async handle({ params }, { db, caller, reply }) {
    const found = await resolveSlug(db, caller, params.kind as SlugKind, params.slug);
    return found ?? sendDetail(reply, 404, SLUG_NOT_FOUND);
  },
});
