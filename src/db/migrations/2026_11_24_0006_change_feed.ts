/**
 * The change feed (extension E5): per website, the latest change of every entity its keys see or
 * saw, numbered from one global sequence.
 *
 * - website_changes: one row per (website, kind, entity), compacted: the row holds the entity's
 *   latest change (`upsert` while visible, `delete` once it stopped being visible), with the
 *   version and updated_at the website saw and `seq`, its place in the feed. A website's feed is
 *   its rows in `seq` order (index website_changes_feed_idx). changed_at is when the row was last
 *   written: tombstones older than the retention are purged (partial index on it).
 * - website_feeds: per website, floor_seq: the highest seq of a purged tombstone. A cursor below it
 *   may have missed a delete, so it has expired (410).
 *
 * The import writes both inside its transaction (src/features/change-feed/write.ts). Websites that exist
 * when this migration runs get their initial state here (a frozen copy of what the import
 * computes: the organization, its branches, agents, investments and active offers).
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE SEQUENCE website_change_seq AS bigint`,
  `CREATE TABLE website_changes (
    website_id uuid NOT NULL,
    kind text NOT NULL CHECK (kind IN ('organization', 'branch', 'agent', 'investment', 'offer')),
    entity_id uuid NOT NULL,
    op text NOT NULL CHECK (op IN ('upsert', 'delete')),
    version integer NOT NULL,
    updated_at timestamptz NOT NULL,
    seq bigint NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (website_id, kind, entity_id)
  )`,
  `CREATE UNIQUE INDEX website_changes_feed_idx ON website_changes (website_id, seq)`,
  `CREATE INDEX website_changes_tombstones_idx ON website_changes (changed_at) WHERE op = 'delete'`,
  `CREATE TABLE website_feeds (
    website_id uuid PRIMARY KEY,
    floor_seq bigint NOT NULL DEFAULT 0
  )`,
  `INSERT INTO website_changes (website_id, kind, entity_id, op, version, updated_at, seq)
  SELECT website_id, kind, entity_id, 'upsert', version, updated_at, nextval('website_change_seq')
  FROM (
    SELECT w.website_id, v.kind, v.entity_id, v.version, v.updated_at
    FROM websites w
    CROSS JOIN LATERAL (
      SELECT 'organization' AS kind, organization_id AS entity_id, 1 AS version, updated_at, 0 AS rank
        FROM organizations WHERE organization_id = w.organization_id
      UNION ALL SELECT 'branch', branch_id, 1, updated_at, 1 FROM branches WHERE organization_id = w.organization_id
      UNION ALL SELECT 'agent', agent_id, 1, updated_at, 2 FROM agents WHERE organization_id = w.organization_id
      UNION ALL SELECT 'investment', investment_id, 1, updated_at, 3 FROM investments WHERE organization_id = w.organization_id
        AND ecs_investment_in_scope(w.scope, investment_id)
      UNION ALL SELECT 'offer', offer_id, version, updated_at, 4 FROM offers WHERE organization_id = w.organization_id AND is_active
        AND ecs_offer_in_scope(w.scope, investment_id, branch_id, offer_type)
    ) AS v
    ORDER BY w.website_id, v.rank, v.entity_id
  ) AS initial`,
];

const DOWN: readonly string[] = [`DROP TABLE website_feeds`, `DROP TABLE website_changes`, `DROP SEQUENCE website_change_seq`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
