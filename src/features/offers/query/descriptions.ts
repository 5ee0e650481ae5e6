/**
 * The prose of /openapi.json and /docs about the offer query: the filter language, sorting,
 * pagination and include. Field lists are generated from the field catalogue, and operator lists,
 * their lines and their values' words from the operator table (operators.ts), so that the docs
 * cannot drift from what the service accepts.
 */
import { OFFER_DATA_FIELDS, OFFER_TOP_FIELDS, type FieldKind } from '../../../contract/offer-fields.js';
import { sortableFieldNames } from './language.js';
import { ALL_OPERATORS, OPERATORS, OPERATORS_BY_KIND, operatorsOfSchema, SCHEMA_OPERATORS, type FilterOperator } from './operators.js';

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

/** Runs of neighbours in the table sharing `key`, in the table's order (operators the docs describe together). */
function runs(names: readonly FilterOperator[], key: (name: FilterOperator) => string | undefined): { key: string; names: FilterOperator[] }[] {
  const out: { key: string; names: FilterOperator[] }[] = [];
  for (const name of names) {
    const k = key(name);
    if (k === undefined) continue;
    const last = out[out.length - 1];
    if (last?.key === k) last.names.push(name);
    else out.push({ key: k, names: [name] });
  }
  return out;
}

/**
 * One line per operator (or run of neighbours with the same line) on stored fields; the geography's
 * operators are described by their own schema (GeoFilter).
 */
const OPERATOR_LINES = runs(
  ALL_OPERATORS.filter((name) => !OPERATORS[name].kinds.includes('geo_point')),
  (name) => OPERATORS[name].doc,
)
  .map(({ key, names }) => `- ${code(names)}: ${key}`)
  .join('\n');

/** The Filter schema's `value`: the words of each value shape but the plain one, with its operators. */
const VALUE_WORDS = runs(operatorsOfSchema('Filter'), (name) => OPERATORS[name].value.doc).map(
  ({ key, names }) => `${key} for ${names.map((n) => `\`${n}\``).join(' / ')}`,
);
export const FILTER_VALUE_DESCRIPTION = `${["A value of the field's type", ...VALUE_WORDS].join('; ')}. Date-times are RFC 3339 strings.`;

/** The geography schema's `operator`: "`a`, `b` or `c`." */
export const GEO_OPERATOR_DESCRIPTION = (() => {
  const names = SCHEMA_OPERATORS.GeoFilter.map((n) => `\`${n}\``);
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}.`;
})();

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

${OPERATOR_LINES}
- Date-times are RFC 3339 strings (\`2025-03-01T00:00:00Z\`, \`2025-03-01T01:00:00+01:00\`).
- A value of the wrong type, an unknown field or an operator the field does not take is a 422 located at
  \`["body", "filters", <index>, "field" | "operator" | "value"]\`.

**Include** (query, optional): \`include=agent,branch,organization,investment\` (comma-separated and/or repeated)
embeds those entities; not included or not linked: \`null\`.

**Fields** (optional, extension E13): \`"fields": ["title", "price", "photos_urls"]\` keeps only those offer_data
fields in each offer's \`offer_data\`, in the field catalogue's order; every other key of the offer and the page stays.
An unknown name is a 422 at \`["body", "fields", <index>]\` with a did-you-mean. Absent or \`null\`: every field.

**Format**: JSON by default; \`Accept: application/xml\` returns the same page as XML.
`.trim();
