/**
 * The photo operations (extension E11): GET /api/v1/offers/{offer_id}/photos (keyed, with the
 * offer's tenancy, scope and 404 exactly as GET /api/v1/offers/{offer_id}), and the public, signed
 * variant URLs it hands out, GET /images/{offer_id}/{photo}/{hash}/{signature}/{file}.
 */
import Type from 'typebox';
import { keyedOperation, publicOperation, sendDetail } from '../../http/operation.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import { OfferIdParams } from '../offers/index.js';
import { IMMUTABLE } from './model.js';
import { VariantParams } from './schemas.js';
import { demoPhotoOfFile, renderDemoPhoto } from './demo-photos.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VariantFile } from './variant-memory.js';

/** Where variant URLs start: PUBLIC_URL, else the origin the request was sent to. */
function baseUrlOf(publicUrl: string | undefined, request: FastifyRequest): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

export const listOfferPhotos = keyedOperation({
  operationId: 'list_offer_photos',
  summary: 'The photos of an offer, at the sizes a page needs',
  description:
    'Every photo and floor plan of the offer, in the order of `photos_urls` then `floor_plan_urls`: its size as displayed, a tiny ' +
    'placeholder, and variant URLs (AVIF, WebP, JPEG at widths 320 to 1920, never upscaled) for `<img srcset>` or `<picture>`. ' +
    'Variant URLs are public and signed (an `<img>` sends no key) and never change their bytes. Sources are fetched in the ' +
    'background after an import, from the origins in IMAGE_SOURCES only: a photo is `pending` until then, `unavailable` (with a ' +
    '`reason`) when it cannot be used. Same key, tenancy, scope and 404 as GET /api/v1/offers/{offer_id}. Not served from the ' +
    'response cache: a photo turns `ready` without an import.',
  tags: ['offers'],
  params: OfferIdParams,
  responses: {
    200: { description: 'The photos of the offer', content: { 'application/json': { schema: Type.Ref('OfferPhotos') } } },
    ...errorResponses('Offer not found'),
  },
  async handle({ params }, { services, caller, request, reply }) {
    const offer = await services.offers.find(caller, params.offer_id, new Set());
    if (!offer) return sendDetail(reply, 404, 'Offer not found');
    const base = baseUrlOf(services.publicUrl, request);
    const photos = await services.photos.photosOf(offer.offer_id, offer.offer_data, base);
    return { offer_id: offer.offer_id, photos };
  },
});

const binary = { type: 'string', format: 'binary' };

export const readPhotoVariant = publicOperation({
  operationId: 'read_photo_variant',
  summary: 'A photo variant (public, signed)',
  description:
    'The image a variant URL of GET /api/v1/offers/{offer_id}/photos names: no key, the URL\'s signature is the permission. A ' +
    'URL with any part changed answers 404 without any work. Rendered once, then kept; `Cache-Control: ' +
    `${IMMUTABLE}\` and a strong ETag (If-None-Match answers 304).`,
  tags: ['photos'],
  params: VariantParams,
  responses: {
    200: {
      description: 'The image, without metadata, in sRGB',
      headers: {
        'Cache-Control': { type: 'string', description: IMMUTABLE },
        ETag: { type: 'string', description: 'Strong: the URL names the bytes.' },
      },
      content: { 'image/avif': { schema: binary }, 'image/webp': { schema: binary }, 'image/jpeg': { schema: binary } },
    },
    304: { description: 'Not modified (If-None-Match)' },
    404: {
      description: 'Not a URL this service issued, or its source is gone',
      content: { 'application/json': { schema: Type.Ref('ErrorResponse'), example: { detail: 'Not Found' } } },
    },
  },
  async handle({ params }, { services, request, reply }) {
    const photos = services.photos;
    // A URL served before: answered from memory, with no check (only verified URLs are kept).
    const kept = photos.remembered(params);
    if (kept) return sendVariant(request, reply, kept);
    const verified = await photos.verified(params);
    if (!verified) return sendDetail(reply, 404, 'Not Found');
    // A revalidation needs no bytes: the URL names them.
    if (matches(request, verified.etag)) return notModified(reply, verified.etag);
    const variant = await photos.variant(verified);
    if (!variant) return sendDetail(reply, 404, 'Not Found');
    return sendVariant(request, reply, variant);
  },
});

/** True when If-None-Match names the ETag. */
function matches(request: FastifyRequest, etag: string): boolean {
  const given = request.headers['if-none-match'];
  return given !== undefined && given.split(',').some((tag) => tag.trim() === etag);
}

function notModified(reply: FastifyReply, etag: string): FastifyReply {
  return reply.code(304).header('etag', etag).header('cache-control', IMMUTABLE).send();
}

/** The variant's answer: its bytes, or 304 when the client has them. */
function sendVariant(request: FastifyRequest, reply: FastifyReply, variant: VariantFile): FastifyReply {
  if (matches(request, variant.etag)) return notModified(reply, variant.etag);
  return reply.header('etag', variant.etag).header('cache-control', IMMUTABLE).header('content-type', variant.contentType).send(variant.bytes);
}

/** GET /demo/photos/{file}: the demo's photos as sources, for a browser (the fetcher draws them itself). */
export const readDemoPhoto = publicOperation({
  operationId: 'read_demo_photo',
  summary: 'A photo of the demo data set',
  tags: ['photos'],
  params: Type.Object({ file: Type.String() }),
  responses: {
    200: { description: 'The photo (JPEG)', content: { 'image/jpeg': { schema: binary } } },
    404: { description: 'Not a demo photo', content: { 'application/json': { schema: Type.Ref('ErrorResponse') } } },
  },
  async handle({ params }, { reply }) {
    const name = demoPhotoOfFile(params.file);
    if (!name) return sendDetail(reply, 404, 'Not Found');
    return reply.type('image/jpeg').header('cache-control', 'public, max-age=86400').send(await renderDemoPhoto(name));
  },
});
