/**
 * Schemas of the photos (extension E11): the answer of GET /api/v1/offers/{offer_id}/photos and
 * the path of a variant URL (plain strings: a URL the service did not issue answers 404, never 422).
 */
import Type from 'typebox';
import { LARGEST_WIDTH, PLACEHOLDER_MAX_CHARS, VARIANT_FORMATS, VARIANT_WIDTHS } from './model.js';

const EXAMPLE_OFFER = '7f0c2d9e-3b1a-4c55-9d7e-2a6b8c4d1e01';
const EXAMPLE_HASH = '9b2f6c1de0a4478f8c3b5e7a1d2c4f6e8a0b1c3d5e7f9a1b3c5d7e9f1a3b5c7d';
const example = (width: number, height: number, format: string) => ({
  width,
  height,
  format,
  url: `https://api.example.pl/images/${EXAMPLE_OFFER}/photo-0/${EXAMPLE_HASH}/q3J9xk2LrV0aYt8mWc1n7g/${width}.${format}`,
});

export const PhotoVariantSchema = Type.Object(
  {
    width: Type.Integer({ minimum: 1, maximum: LARGEST_WIDTH }),
    height: Type.Integer({ minimum: 1 }),
    format: Type.Union(VARIANT_FORMATS.map((f) => Type.Literal(f))),
    url: Type.String({
      description: 'Absolute, public (no key) and signed: only URLs from an answer of this service are served. Cache it forever: a changed source gets new URLs.',
    }),
  },
  { $id: 'PhotoVariant', title: 'PhotoVariant' },
);

export const PhotoSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('photo'), Type.Literal('floor_plan')], { description: '`photo` (from `photos_urls`) or `floor_plan` (from `floor_plan_urls`).' }),
    index: Type.Integer({ minimum: 0, description: 'Position within its kind\'s list, from 0.' }),
    source_url: Type.String({ description: 'The URL as imported.' }),
    status: Type.Union([Type.Literal('ready'), Type.Literal('pending'), Type.Literal('unavailable')], {
      description:
        '`ready`: measured, variants listed. `pending`: not fetched yet (within seconds of an import). ' +
        '`unavailable`: not fetched (its origin is not in IMAGE_SOURCES) or unusable (see `reason`); the next import tries again.',
    }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the photo is `unavailable`; `null` otherwise.' }),
    width: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'Width as displayed (EXIF orientation applied); `null` unless `ready`.' }),
    height: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'Height as displayed; `null` unless `ready`.' }),
    placeholder: Type.Union([Type.String({ maxLength: PLACEHOLDER_MAX_CHARS }), Type.Null()], {
      description: `A tiny blurred preview: a \`data:image/webp;base64,...\` URI of at most ${PLACEHOLDER_MAX_CHARS} characters (16 px on its long side), for a CSS background while the photo loads; \`null\` unless \`ready\`.`,
    }),
    variants: Type.Array(Type.Ref('PhotoVariant'), {
      description:
        `Widths ${VARIANT_WIDTHS.join(', ')} up to the photo's own (never upscaled; its own width too when below ${LARGEST_WIDTH}), ` +
        'each as avif, webp and jpeg, by width then format. Empty unless `ready`.',
    }),
  },
  { $id: 'Photo', title: 'Photo' },
);

export const OfferPhotosSchema = Type.Object(
  {
    offer_id: Type.String({ format: 'uuid' }),
    photos: Type.Array(Type.Ref('Photo'), { description: 'In the order of `photos_urls`, then `floor_plan_urls`.' }),
  },
  {
    $id: 'OfferPhotos',
    title: 'OfferPhotos',
    examples: [
      {
        offer_id: EXAMPLE_OFFER,
        photos: [
          {
            kind: 'photo',
            index: 0,
            source_url: 'https://crm.example.pl/photos/1.jpg',
            status: 'ready',
            reason: null,
            width: 800,
            height: 600,
            placeholder: 'data:image/webp;base64,UklGRlQAAABXRUJQVlA4IEgAAADwAQCdASoQAAwAPm0wlEekIyGhKAgAgA2JZQAAPaOgAP7+1v/4sGq6A9Cqf5dPogsAAAA=',
            variants: [example(320, 240, 'avif'), example(320, 240, 'webp'), example(320, 240, 'jpeg'), example(640, 480, 'avif'), example(640, 480, 'webp'), example(640, 480, 'jpeg'), example(800, 600, 'avif'), example(800, 600, 'webp'), example(800, 600, 'jpeg')],
          },
          {
            kind: 'floor_plan',
            index: 0,
            source_url: 'https://other.example.com/plan.png',
            status: 'unavailable',
            reason: 'origin https://other.example.com is not in IMAGE_SOURCES',
            width: null,
            height: null,
            placeholder: null,
            variants: [],
          },
        ],
      },
    ],
  },
);

export const VariantParams = Type.Object({
  offer_id: Type.String({ description: 'As issued.' }),
  photo: Type.String({ description: 'As issued (`photo-0`, `floor_plan-1`).' }),
  hash: Type.String({ description: 'As issued: the content hash of the source.' }),
  signature: Type.String({ description: 'As issued.' }),
  file: Type.String({ description: 'As issued: `<width>.<format>`.' }),
});
