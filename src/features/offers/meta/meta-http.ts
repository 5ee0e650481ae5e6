/**
 * GET /api/v1/meta/offers (extension E4): every field that filters, sorting and facets accept,
 * with its type and operators, and for enumerated fields the values present in the organization's
 * active offers, so that a website can build its filter form.
 */
import Type from 'typebox';
import { OFFER_DATA_FIELD_BY_NAME } from '../../../contract/offer-fields.js';
import {
  DISTANCE_SORT_FIELD,
  filterableFieldNames,
  hasStats,
  isFacetable,
  isSortable,
  OFFER_INCLUDES,
  OPERATORS_BY_KIND,
  resolveOfferField,
  sortableFieldNames,
  type QueryFieldKind,
} from '../query/language.js';
import { enumValuesInUse, languagesInUse } from './meta-read.js';
import { keyedOperation } from '../../../http/operation.js';
import { errorResponses } from '../../../http/schemas/error-responses.js';

const TYPE_NAME: Readonly<Record<QueryFieldKind, string>> = {
  number: 'number',
  integer: 'integer',
  text: 'string',
  enum: 'enum',
  uuid: 'uuid',
  boolean: 'boolean',
  datetime: 'date-time',
  datetime_ms: 'date-time',
  datetime_offset: 'date-time',
  url_list: 'array',
  geo_point: 'geo_point',
};

export const offerFieldCatalogue = keyedOperation({
  operationId: 'offer_field_catalogue',
  summary: 'The offer fields for filters, sorting and facets',
  description:
    'Every field that `filters`, `sorting` and the facet operations accept, with its type, operators and whether it sorts, ' +
    'counts as a facet or has statistics; for enumerated fields, the values present in your active offers; and the languages ' +
    'your offers and investments have translations into (`languages`, what `lang` serves; extension E12).',
  tags: ['offers'],
  responses: {
    200: { description: 'The field catalogue', content: { 'application/json': { schema: Type.Ref('FieldCatalogue') } } },
    ...errorResponses(),
  },
  async handle(_input, ctx) {
    const [values, languages] = await Promise.all([enumValuesInUse(ctx.db, ctx.caller), languagesInUse(ctx.db, ctx.caller)]);
    const fields = filterableFieldNames().map((name) => {
      const field = resolveOfferField(name)!;
      const enumerated = field.source === 'offer_data' && OFFER_DATA_FIELD_BY_NAME.get(name)?.kind === 'enum';
      return {
        name,
        type: TYPE_NAME[field.kind],
        operators: [...OPERATORS_BY_KIND[field.kind]],
        sortable: isSortable(field),
        facet: isFacetable(field),
        stats: hasStats(field),
        ...(enumerated ? { values: values[name] ?? [] } : {}),
      };
    });
    return { fields, includes: [...OFFER_INCLUDES], sort_fields: [...sortableFieldNames(), DISTANCE_SORT_FIELD], languages };
  },
});
