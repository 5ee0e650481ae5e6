/**
 * Schemas of the SEO wing's operations (extension E12): the slug lookup's path and answer.
 */
import Type from 'typebox';
import { SLUG_KINDS } from './model.js';

export const SlugParams = Type.Object({
  kind: Type.String({ enum: [...SLUG_KINDS], description: '`offer` or `investment`.' }),
  slug: Type.String({ description: 'A slug the entity has now or had before (old slugs keep resolving).', examples: ['mieszkanie-z-balkonem-krakow'] }),
});

export const SlugSchema = Type.Object(
  {
    kind: Type.String({ enum: [...SLUG_KINDS] }),
    id: Type.String({ format: 'uuid', description: 'The offer_id or investment_id.' }),
    slug: Type.String({
      description: 'The current slug: when it differs from the one asked for, the page has moved (answer 301 to the current URL).',
    }),
  },
  {
    $id: 'Slug',
    title: 'Slug',
    additionalProperties: false,
    examples: [{ kind: 'offer', id: '3f2b8c1e-9a4d-4c6b-8e2f-1a2b3c4d5e6f', slug: 'mieszkanie-z-balkonem-krakow' }],
  },
);

export const SitemapQuery = Type.Object({
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'A part of a sitemap of more than 50,000 addresses, as its index lists them. Absent: the whole sitemap, or its index.',
    }),
  ),
});
