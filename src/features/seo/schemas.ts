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

export const OfferIdParams = Type.Object({ offer_id: Type.String({ format: 'uuid', description: 'Offer id (UUID, any letter case).' }) });

/** The JSON-LD document: its outer keys (the rest is schema.org's vocabulary, checked in the tests). */
export const StructuredDataSchema = Type.Object(
  {
    '@context': Type.Literal('https://schema.org'),
    '@type': Type.Literal('RealEstateListing'),
    url: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    datePosted: Type.Optional(Type.String()),
    image: Type.Optional(Type.Array(Type.String())),
    offers: Type.Optional(Type.Object({ '@type': Type.Literal('Offer') }, { additionalProperties: true })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        '@context': 'https://schema.org',
        '@type': 'RealEstateListing',
        url: 'https://www.agency.pl/oferta/dom-z-ogrodem-lodz',
        name: 'Dom z ogrodem',
        description: 'Dom z ogrodem na Bałutach.',
        datePosted: '2025-01-31T10:15:00+01:00',
        image: ['https://cdn.agency.pl/1.jpg'],
        offers: {
          '@type': 'Offer',
          price: 912000,
          priceCurrency: 'PLN',
          itemOffered: {
            '@type': 'House',
            floorSize: { '@type': 'QuantitativeValue', value: 120.5, unitCode: 'MTK' },
            numberOfRooms: 5,
            address: { '@type': 'PostalAddress', streetAddress: 'Zgierska 12', addressLocality: 'Łódź', addressCountry: 'Polska' },
            geo: { '@type': 'GeoCoordinates', latitude: 51.79, longitude: 19.45 },
          },
        },
      },
    ],
  },
);
