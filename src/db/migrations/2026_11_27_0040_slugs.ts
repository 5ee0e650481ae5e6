/**
 * Slugs (extension E12): each offer and investment has its current slug in its own row, and the
 * table slugs keeps every slug an entity ever had (current included), unique per organization and
 * kind, so an old slug keeps resolving to its entity. ecs_slug() makes a slug of a text (its
 * routine: src/db/routines/slug.ts). The offers and investments stored before get a slug from
 * their title (offers: and city) or name here, as the import would make it: the first by id takes
 * the plain slug, the others a suffix of their id's first hex digits.
 *
 * Written to run again over its own result (IF NOT EXISTS, only rows without a slug), as the
 * routines' test does with the last migration.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE OR REPLACE FUNCTION ecs_slug(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
      WHEN length(s) <= 80 THEN s
      WHEN position('-' in left(s, 81)) = 0 THEN left(s, 80)
      ELSE regexp_replace(left(s, 81), '-[^-]*$', '') END
    FROM (SELECT btrim(regexp_replace(translate(lower(coalesce(t, '')), 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻáàâäãåāčçďéèêëěēíìîïīľĺňñôöõőøřšťúùûüůűūýÿžÁÀÂÄÃÅĀČÇĎÉÈÊËĚĒÍÌÎÏĪĽĹŇÑÔÖÕŐØŘŠŤÚÙÛÜŮŰŪÝŸŽß', 'acelnoszzacelnoszzaaaaaaaccdeeeeeeiiiiillnnooooorstuuuuuuuyyzaaaaaaaccdeeeeeeiiiiillnnooooorstuuuuuuuyyzs'), '[^a-z0-9]+', '-', 'g'), '-') AS s) AS folded
  $$`,
  `ALTER TABLE offers ADD COLUMN IF NOT EXISTS slug text`,
  `ALTER TABLE investments ADD COLUMN IF NOT EXISTS slug text`,
  `CREATE TABLE IF NOT EXISTS slugs (
    organization_id uuid NOT NULL,
    kind text NOT NULL CHECK (kind IN ('offer', 'investment')),
    slug text NOT NULL,
    entity_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, kind, slug)
  )`,
  `CREATE INDEX IF NOT EXISTS slugs_entity_idx ON slugs (entity_id)`,
  // The rows an import still has to give a slug to.
  `CREATE INDEX IF NOT EXISTS offers_without_slug_idx ON offers (organization_id) WHERE slug IS NULL`,
  `CREATE INDEX IF NOT EXISTS investments_without_slug_idx ON investments (organization_id) WHERE slug IS NULL`,
  `WITH made AS (
    SELECT offer_id AS id, organization_id,
      coalesce(nullif(ecs_slug(coalesce(offer_data->>'title', '') || ' ' || coalesce(offer_data->>'address_city', '')), ''), 'offer') AS base
    FROM offers WHERE slug IS NULL
  ), numbered AS (
    SELECT id, organization_id, base, row_number() OVER (PARTITION BY organization_id, base ORDER BY id) AS n FROM made
  )
  UPDATE offers o SET slug = CASE WHEN n.n = 1 THEN n.base ELSE n.base || '-' || left(replace(n.id::text, '-', ''), 6) END
  FROM numbered n WHERE o.offer_id = n.id`,
  `WITH made AS (
    SELECT investment_id AS id, organization_id, coalesce(nullif(ecs_slug(name), ''), 'investment') AS base FROM investments WHERE slug IS NULL
  ), numbered AS (
    SELECT id, organization_id, base, row_number() OVER (PARTITION BY organization_id, base ORDER BY id) AS n FROM made
  )
  UPDATE investments i SET slug = CASE WHEN n.n = 1 THEN n.base ELSE n.base || '-' || left(replace(n.id::text, '-', ''), 6) END
  FROM numbered n WHERE i.investment_id = n.id`,
  `INSERT INTO slugs (organization_id, kind, slug, entity_id)
    SELECT organization_id, 'offer', slug, offer_id FROM offers
    UNION ALL SELECT organization_id, 'investment', slug, investment_id FROM investments
    ON CONFLICT DO NOTHING`,
];

const DOWN: readonly string[] = [
  `DROP TABLE slugs`,
  `ALTER TABLE investments DROP COLUMN slug`,
  `ALTER TABLE offers DROP COLUMN slug`,
  `DROP FUNCTION ecs_slug(text)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
