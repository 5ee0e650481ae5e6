/** Shortcuts for the webhook tests: fast settings, a website with an endpoint, waiting for the log. */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { addEndpoint, listDeliveries, type DeliverySummary } from '../../src/features/webhooks/write.js';
import { importObject, smallBundle, type Bundle, type Ids } from '../import/helpers.js';
import type { Receiver } from './webhook-receiver.js';

/**
 * Retries after 100 ms, then 600 ms, then every 1 s; the sender looks every 50 ms. Requests time
 * out after 2 s: a local receiver answers long before, even on a busy machine.
 */
export const FAST_WEBHOOKS: Record<string, string> = {
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_FIRST_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '1000',
};

/** Polls `check` every 25 ms until it returns something truthy; fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Site {
  bundle: Bundle;
  ids: Ids;
  endpointId: string;
  secret: string;
}

/** Imports a new organization with one website and adds an endpoint to it that posts to `receiver`. */
export async function siteWithEndpoint(db: Kysely<Database>, receiver: Receiver): Promise<Site> {
  const { bundle, ids } = smallBundle();
  await importObject(db, bundle);
  const endpoint = await addEndpoint(db, { websiteId: ids.website, url: receiver.url });
  receiver.secret = endpoint.secret;
  return { bundle, ids, endpointId: endpoint.endpoint_id, secret: endpoint.secret };
}

/** The bundle with its first offer's price set to `price` (an import of it changes one offer). */
export function priced(bundle: Bundle, price: number): Bundle {
  const offers = bundle.offers!.map((o, n) => (n === 0 ? { ...o, offer_data: { ...(o.offer_data as object), price } } : o));
  return { ...bundle, offers };
}

/** The endpoint's deliveries, oldest first. */
export async function deliveriesOf(db: Kysely<Database>, endpointId: string): Promise<DeliverySummary[]> {
  return (await listDeliveries(db, { endpointId, limit: 1000 })).reverse();
}

/** Waits until every delivery of the endpoint is delivered or failed; returns them oldest first. */
export function settled(db: Kysely<Database>, endpointId: string, count: number): Promise<DeliverySummary[]> {
  return waitFor(async () => {
    const all = await deliveriesOf(db, endpointId);
    return all.length === count && all.every((d) => d.status !== 'pending') ? all : undefined;
  }, `${count} settled deliveries to ${endpointId}`);
}
