/**
 * The prose of /openapi.json and /docs that a website developer works from: authentication,
 * errors, the filter language, sorting, pagination and include. Field lists are generated from the
 * field catalogue so that the docs cannot drift from what the service accepts.
 */
import { OFFER_DATA_FIELDS, OFFER_TOP_FIELDS, type FieldKind } from '../../domain/offer-fields.js';
import { OPERATORS_BY_KIND, sortableFieldNames } from '../../domain/offer-query.js';

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

export const API_DESCRIPTION = `
Read-only content of one website: its organization, branches, agents, investments and active offers.

**Authentication.** Every \`/api/v1\` call needs the website's API key in the \`Authorization\` header, either bare
(\`Authorization: ecs_...\`) or as \`Authorization: Bearer ecs_...\`. Missing, unknown and inactive (or expired)
keys answer 401 with \`{"detail": "API key is required"}\`, \`{"detail": "Invalid API key"}\` and
\`{"detail": "API key is not active"}\`.

**Errors** are JSON whatever the Accept header says: \`{"detail": "..."}\` (400, 401, 404, 405, 408, 413, 417, 429, 500, 503), or for
422 a list of every problem found, FastAPI style:
\`{"detail": [{"type": "greater_than_equal", "loc": ["body", "pagination", "page"], "msg": "Input should be greater than or equal to 1", "input": 0, "ctx": {"ge": 1}}]}\`.
An unauthenticated request gets its 401 before anything else is checked; a 422 comes before a 404.

**Ids** are UUIDs, accepted in any letter case and answered in lower case.

**Website scope.** The operator may limit a website to part of its organization: some investments, branches or
offer types. Its keys then see only the offers that match every limit, and only the listed investments when
investments are listed; everything else (lists, facets, the field catalogue, includes) behaves as if the rest did not
exist, and its ids answer 404. Branches, agents and the organization are never limited.
`.trim();
