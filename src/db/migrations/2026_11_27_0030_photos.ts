/**
 * Photos at the size the page needs (extension E11): the photo sources the service fetches, and
 * the secret that signs the variant URLs.
 *
 * - photo_sources: one row per distinct source URL (of any offer, photo or floor plan), keyed by
 *   `source_id`, the hex SHA-256 of the URL (a URL may be longer than a btree entry allows). It is
 *   a work queue as well as a record, like webhook_deliveries: the import inserts the URLs of the
 *   offers it writes (status `pending`) in its own transaction, and the fetcher of a running
 *   instance claims due rows with a lease (`locked_until`), so one instance fetches each source
 *   and a source whose fetcher died is fetched again once its lease has passed. A fetched source
 *   is `ready` with its displayed dimensions, its placeholder and `content_hash` (the hex SHA-256
 *   of its bytes, the name of its file in IMAGE_CACHE_DIR and part of every variant URL), or
 *   `unavailable` with a `reason`; the next import that names it sets it `pending` again.
 *   The rows of offers stored before this migration are inserted here, pending.
 * - photo_settings: one row, the signing secret of variant URLs when IMAGE_SIGNING_SECRET is not
 *   set: made here from the database's random UUIDs, so every instance of one database agrees.
 *
 * Every statement may run again on a database that has them (IF NOT EXISTS, ON CONFLICT): the
 * migrator's tests run the last migration a second time, and a kept secret must stay as it is.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS photo_sources (
    source_id text PRIMARY KEY,
    url text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready', 'unavailable')),
    reason text,
    content_hash text,
    width integer,
    height integer,
    placeholder text,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    locked_until timestamptz,
    fetched_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  // The fetcher's question: which pending sources are due.
  `CREATE INDEX IF NOT EXISTS photo_sources_due_idx ON photo_sources (next_attempt_at) WHERE status = 'pending'`,
  // A variant whose source file is missing on this instance finds its URL by the content hash.
  `CREATE INDEX IF NOT EXISTS photo_sources_content_hash_idx ON photo_sources (content_hash) WHERE content_hash IS NOT NULL`,
  `CREATE TABLE IF NOT EXISTS photo_settings (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    signing_secret text NOT NULL
  )`,
  `INSERT INTO photo_settings (signing_secret)
    VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))
    ON CONFLICT (singleton) DO NOTHING`,
  `INSERT INTO photo_sources (source_id, url)
    SELECT DISTINCT encode(sha256(convert_to(u.url, 'UTF8')), 'hex'), u.url
    FROM offers o
    CROSS JOIN LATERAL (
      SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(o.offer_data -> 'photos_urls') = 'array' THEN o.offer_data -> 'photos_urls' ELSE '[]'::jsonb END)
      UNION ALL
      SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(o.offer_data -> 'floor_plan_urls') = 'array' THEN o.offer_data -> 'floor_plan_urls' ELSE '[]'::jsonb END)
    ) AS u (url)
    WHERE o.is_active
    ON CONFLICT (source_id) DO NOTHING`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE photo_settings`).execute(db);
  await sql.raw(`DROP TABLE photo_sources`).execute(db);
}
