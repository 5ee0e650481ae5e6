/**
 * The prose of /openapi.json and /docs about the offer query: the filter language, sorting,
 * pagination and include. Field lists are generated from the
 * field catalogue so that the docs cannot drift from what the service accepts.
 */
import { OFFER_DATA_FIELDS, OFFER_TOP_FIELDS, type FieldKind } from '../../../contract/offer-fields.js';
import { OPERATORS_BY_KIND, sortableFieldNames } from './language.js';

const KIND_LABEL: Record<FieldKind, string> = {
  number: 'number',
  integer: 'integer',
  datetime: 'date-time',
  datetime_ms: 'date-time',
  datetime_offset: 'date-time',
  text: 'string (free text)',
  enum: 'enumerated string',
  uuid: 'uuid',
  boolean: 'boolean',
  url_list: 'array of URLs',
};

const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');

function fieldsOfKinds(kinds: readonly FieldKind[]): string[] {
  const names = new Set<string>();
  for (const field of [...OFFER_TOP_FIELDS, ...OFFER_DATA_FIELDS]) if (kinds.includes(field.kind)) names.add(field.name);
  return [...names];
}

const ROWS: { kinds: FieldKind[] }[] = [
  { kinds: ['number', 'integer', 'datetime', 'datetime_ms', 'datetime_offset'] },
  { kinds: ['text'] },
  { kinds: ['enum', 'uuid'] },
  { kinds: ['boolean'] },
  { kinds: ['url_list'] },
];

export const FILTER_TABLE = [
  '| field type | operators | fields |',
  '|---|---|---|',
  ...ROWS.map(({ kinds }) => {
    const labels = [...new Set(kinds.map((k) => KIND_LABEL[k]))].join(', ');
    return `| ${labels} | ${code(OPERATORS_BY_KIND[kinds[0]!])} | ${code(fieldsOfKinds(kinds))} |`;
  }),
].join('\n');

export const FILTERS_DESCRIPTION =
  'Up to 50 conditions, all of which must hold. Each is `{"field", "operator", "value"}`.';

export const SORTING_DESCRIPTION =
  '`{"field": ..., "direction": "asc" | "desc"}`. Offers without a value for the field come last in both directions; ' +
  'ties are broken by `offer_id`. Absent or null: newest first (`created_at` descending).';

export const OFFER_QUERY_DESCRIPTION = `
Active offers of the website's organization, one page at a time.

**Pagination** (required; \`{}\` is valid): \`page\` from 1 (default 1), \`size\` 1 to 100 (default 50).
The response carries \`page\`, \`size\`, \`total\` (matching offers) and \`pages\` (\`ceil(total / size)\`, 0 when
there are none). A page past the end is a 200 with no items.

**Sorting** (optional): \`{"field": "price", "direction": "asc"}\`. Sortable fields: ${code(sortableFieldNames())}.
Offers without a value come last in both directions; ties are broken by \`offer_id\` ascending, so pages never
overlap. Default: \`created_at\` descending.

**Filters** (optional): up to 50 items \`{"field", "operator", "value"}\`, all of which must hold. A field is
one of ${code(OFFER_TOP_FIELDS.map((f) => f.name))} or any \`offer_data\` field by its bare name (\`price\`;
\`offer_data.price\` is accepted too). The operators a field takes depend on its type:

${FILTER_TABLE}

- \`eq\`, \`ne\`, \`gt\`, \`gte\`, \`lt\`, \`lte\`: compare with one value. \`ne\` does not match offers without a value.
- \`between\`: \`[low, high]\`, both ends included.
- \`in\`, \`not_in\`: a list of 1 to 1000 values. \`not_in\` does not match offers without a value.
- \`contains\`, \`starts_with\`: text search ignoring letter case; \`%\` and \`_\` are ordinary characters.
- \`is_null\`: \`true\` (no value; for arrays: absent or empty) or \`false\`.
- Date-times are RFC 3339 strings (\`2025-03-01T00:00:00Z\`, \`2025-03-01T01:00:00+01:00\`).
- A value of the wrong type, an unknown field or an operator the field does not take is a 422 located at
  \`["body", "filters", <index>, "field" | "operator" | "value"]\`.

**Include** (query, optional): \`include=agent,branch,organization,investment\` (comma-separated and/or repeated)
embeds those entities; not included or not linked: \`null\`.

**Format**: JSON by default; \`Accept: application/xml\` returns the same page as XML.
`.trim();
