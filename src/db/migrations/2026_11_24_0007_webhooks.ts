/**
 * Webhooks (extension E6): endpoints per website, and the outbox of deliveries that the running
 * service sends.
 *
 * - webhook_endpoints: where a website's webhooks go. `secret` is the signing secret (`whsec_` +
 *   base64 of 32 random bytes), kept as it is because the service signs every delivery with it:
 *   unlike an API key it cannot be a hash. It is a secret at rest, like DATABASE_URL's password.
 *   No foreign key to websites (as websites have none to organizations): the command line checks
 *   the website when it adds an endpoint.
 * - webhook_deliveries: one row per message to one endpoint, written in the transaction of the
 *   import that caused it (an outbox). `delivery_id` is the Standard Webhooks `webhook-id`, the
 *   same on every attempt; `payload` is the exact body that is signed and sent (text, not jsonb,
 *   so its bytes never change). `seq` orders an endpoint's deliveries: only the oldest pending
 *   one of an endpoint is sent. `locked_until` is the lease of the instance sending it: a
 *   delivery whose sender died is sent again once its lease has passed.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE TABLE webhook_endpoints (
    endpoint_id uuid PRIMARY KEY,
    website_id uuid NOT NULL,
    url text NOT NULL CHECK (url ~ '^https?://'),
    secret text NOT NULL CHECK (secret ~ '^whsec_'),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX webhook_endpoints_website_idx ON webhook_endpoints (website_id)`,
  `CREATE TABLE webhook_deliveries (
    delivery_id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (endpoint_id) ON DELETE CASCADE,
    event_type text NOT NULL,
    payload text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    locked_until timestamptz,
    last_attempt_at timestamptz,
    last_status integer,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz
  )`,
  // The sender's two questions: which pending deliveries are due, and is an earlier one of the
  // same endpoint still pending.
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_endpoint_pending_idx ON webhook_deliveries (endpoint_id, seq) WHERE status = 'pending'`,
  // The delivery log, newest first.
  `CREATE INDEX webhook_deliveries_endpoint_seq_idx ON webhook_deliveries (endpoint_id, seq DESC)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE webhook_deliveries`).execute(db);
  await sql.raw(`DROP TABLE webhook_endpoints`).execute(db);
}
