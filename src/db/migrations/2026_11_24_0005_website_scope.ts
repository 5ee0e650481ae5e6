/**
 * Website scope (extension E7): a website may see only part of its organization. `websites.scope`
 * is null (the whole organization, as before) or a jsonb object with up to three lists, each a
 * sorted, de-duplicated JSON array of strings: `investment_ids`, `branch_ids` (lower-case UUIDs)
 * and `offer_types`. A list that is absent does not restrict; an offer is in scope when it matches
 * every list that is given (any value within a list).
 *
 * The rule is written once, here, as two SQL functions that every reader of "what a website sees"
 * can call: `ecs_offer_in_scope(scope, investment_id, branch_id, offer_type)` and
 * `ecs_investment_in_scope(scope, investment_id)`. Both are plain IMMUTABLE SQL expressions (no
 * subquery), so PostgreSQL inlines them into the calling query. The API's reads use the same rule
 * in an indexable form (src/features/access/scope-sql.ts; a test holds the two forms to each other).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `ALTER TABLE websites ADD COLUMN scope jsonb`,
  `ALTER TABLE websites ADD CONSTRAINT websites_scope_is_object CHECK (scope IS NULL OR jsonb_typeof(scope) = 'object')`,
  // jsonb ? text: the text is an element of the array. A null offer column matches no list.
  `CREATE FUNCTION ecs_offer_in_scope(scope jsonb, investment_id uuid, branch_id uuid, offer_type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT scope IS NULL OR (
      (scope -> 'investment_ids' IS NULL OR coalesce((scope -> 'investment_ids') ? (investment_id::text), false))
      AND (scope -> 'branch_ids' IS NULL OR coalesce((scope -> 'branch_ids') ? (branch_id::text), false))
      AND (scope -> 'offer_types' IS NULL OR coalesce((scope -> 'offer_types') ? offer_type, false))
    )
  $$`,
  `CREATE FUNCTION ecs_investment_in_scope(scope jsonb, investment_id uuid) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT scope IS NULL OR scope -> 'investment_ids' IS NULL
      OR coalesce((scope -> 'investment_ids') ? (investment_id::text), false)
  $$`,
];

const DOWN: readonly string[] = [
  `DROP FUNCTION ecs_investment_in_scope(jsonb, uuid)`,
  `DROP FUNCTION ecs_offer_in_scope(jsonb, uuid, uuid, text)`,
  `ALTER TABLE websites DROP CONSTRAINT websites_scope_is_object`,
  `ALTER TABLE websites DROP COLUMN scope`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
