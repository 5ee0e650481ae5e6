/**
 * The opening prose of /openapi.json and /docs that a website developer works from:
 * authentication, errors, ids and the website scope. The offer query's own prose is generated from
 * the query language (src/features/offers/query/descriptions.ts).
 */
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
