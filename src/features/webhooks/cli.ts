/**
 * webhooks add / list / remove / test / deliveries. A new endpoint's signing secret is printed
 * once; listings never show it. Messages are sent by the running service, not by these commands.
 */
import { plural } from '../../text/plural.js';
import {
  addEndpoint,
  enqueueTestMessage,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  type DeliverySummary,
  type EndpointSummary,
} from './write.js';
import { CliUserError, withDatabase, type CliIo } from '../../cli/context.js';
import { json, table } from '../../cli/output.js';

export async function webhooksAddCommand(io: CliIo, options: { website: string; url: string; json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const created = await addEndpoint(handle.db, { websiteId: options.website, url: options.url });
    if (options.json) {
      io.stdout.write(json({ endpoint_id: created.endpoint_id, website_id: created.website_id, url: created.url, secret: created.secret }));
      return;
    }
    io.stdout.write(
      `Added webhook endpoint ${created.endpoint_id} for website ${created.website_id}: ${created.url}\n` +
        `Its signing secret is shown only now; give it to the website to verify webhook-signature:\n\n  ${created.secret}\n\n`,
    );
  });
}

function endpointsText(endpoints: readonly EndpointSummary[]): string {
  if (endpoints.length === 0) return 'No webhook endpoints.\n';
  return table(
    ['ENDPOINT ID', 'WEBSITE', 'URL', 'PENDING', 'FAILED', 'CREATED'],
    endpoints.map((e) => [e.endpoint_id, e.website_id, e.url, String(e.pending), String(e.failed), e.created_at]),
    new Set([3, 4]),
  );
}

export async function webhooksListCommand(io: CliIo, options: { website?: string; json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const endpoints = await listEndpoints(handle.db, { websiteId: options.website });
    io.stdout.write(options.json ? json(endpoints) : endpointsText(endpoints));
  });
}

export async function webhooksRemoveCommand(io: CliIo, endpointId: string, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const removed = await removeEndpoint(handle.db, endpointId);
    if (options.json) {
      io.stdout.write(json({ endpoint_id: removed.endpoint_id, removed: true, dropped_pending: removed.dropped }));
      return;
    }
    io.stdout.write(
      `Removed webhook endpoint ${removed.endpoint_id}` +
        (removed.dropped > 0 ? `; ${plural(removed.dropped, 'message')} not yet delivered ${removed.dropped === 1 ? 'was' : 'were'} dropped.\n` : '.\n'),
    );
  });
}

export async function webhooksTestCommand(io: CliIo, endpointId: string, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const queued = await enqueueTestMessage(handle.db, endpointId);
    if (options.json) {
      io.stdout.write(json({ delivery_id: queued.delivery_id, endpoint_id: queued.endpoint_id, event_type: 'webhook.test', status: 'pending' }));
      return;
    }
    io.stdout.write(
      `Queued test message ${queued.delivery_id} for ${queued.url}.\n` +
        `The running service sends it; see how it went with: webhooks deliveries --endpoint ${queued.endpoint_id}\n`,
    );
  });
}

function deliveriesText(deliveries: readonly DeliverySummary[]): string {
  if (deliveries.length === 0) return 'No webhook deliveries.\n';
  return table(
    ['DELIVERY ID', 'ENDPOINT', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST RESULT', 'NEXT ATTEMPT', 'CREATED'],
    deliveries.map((d) => [
      d.delivery_id,
      d.endpoint_id,
      d.event_type,
      d.status,
      String(d.attempts),
      d.attempts === 0 ? '' : d.last_error ?? (d.last_status === null ? '' : `HTTP ${d.last_status}`),
      d.next_attempt_at ?? '',
      d.created_at,
    ]),
    new Set([4]),
  );
}

export async function webhooksDeliveriesCommand(
  io: CliIo,
  options: { failed?: boolean; endpoint?: string; limit?: string; json?: boolean },
): Promise<void> {
  let limit = 50;
  if (options.limit !== undefined) {
    limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliUserError(`--limit must be an integer between 1 and 10000, got "${options.limit}"`);
  }
  await withDatabase(io, async (handle) => {
    const deliveries = await listDeliveries(handle.db, { failed: options.failed === true, endpointId: options.endpoint, limit });
    io.stdout.write(options.json ? json(deliveries) : deliveriesText(deliveries));
  });
}
