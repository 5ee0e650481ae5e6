/**
 * Webhook delivery by the running service (extension E6), against local receivers that check
 * every signature with the Standard Webhooks reference library: one signed message per import
 * that changes a website, none for an import that fails or changes nothing; receivers that fail
 * in every way are retried until they answer; an endpoint gets its messages in order; requests
 * and imports go on while receivers hang; a stopping service hands its deliveries back; and two
 * instances on one PostgreSQL database send each message exactly once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openDatabase } from '../../../src/db/connect.js';
import { enqueueTestMessage, listDeliveries } from '../../../src/features/webhooks/write.js';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { onPostgres } from '../../helpers/db.js';
import { closeAfterFile } from '../../helpers/teardown.js';
import { importObject } from '../../import/helpers.js';
import { deliveriesOf, FAST_WEBHOOKS, priced, settled, siteWithEndpoint, waitFor } from '../../helpers/webhooks.js';
import { startReceiver, type Answer } from '../../helpers/webhook-receiver.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('webhook delivery', () => {
  // One service for the tests that only need the fast settings; each test has its own website.
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: FAST_WEBHOOKS });
  });

  it('sends one signed content.changed per import that changes the website', async () => {
    const receiver = await startReceiver();
    const site = await siteWithEndpoint(t.db.db, receiver);

    await importObject(t.db.db, priced(site.bundle, 123_456));
    const [message] = await receiver.until((r) => r.length >= 1);
    expect(message!.verified).toBe(true);
    expect(message!.verifiedByHand).toBe(true);
    expect(message!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(message!.timestamp).toMatch(/^\d{10}$/);
    expect(message!.signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(message!.headers['content-type']).toBe('application/json');

    const body = JSON.parse(message!.body);
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data']);
    expect(Object.keys(body.data)).toEqual(['website_id', 'cursor', 'counts']);
    expect(body.type).toBe('content.changed');
    expect(body.timestamp).toMatch(ISO);
    expect(body.data.website_id).toBe(site.ids.website);
    expect(typeof body.data.cursor).toBe('string');
    expect(body.data.counts.offer).toEqual({ upsert: 1, delete: 0 });

    const [logged] = await settled(t.db.db, site.endpointId, 1);
    expect(logged).toMatchObject({ delivery_id: message!.id, event_type: 'content.changed', status: 'delivered', last_status: 204, last_error: null });
    expect(logged!.delivered_at).not.toBeNull();
    // One message (once, unless a very busy machine made an attempt time out).
    expect(receiver.received.every((r) => r.id === message!.id)).toBe(true);
    expect(logged!.attempts).toBe(receiver.received.length);
  });

  it('sends nothing for an import that is rejected or changes nothing', async () => {
    const receiver = await startReceiver();
    const site = await siteWithEndpoint(t.db.db, receiver);

    await importObject(t.db.db, site.bundle); // the same content again: nothing changed
    const broken = priced(site.bundle, 1);
    broken.offers!.push({ offer_id: 'not-a-uuid', organization_id: site.ids.org });
    await expect(importObject(t.db.db, broken)).rejects.toThrow(/import rejected/);
    // A change comes last: had either import above written a message, it would arrive first (in order).
    await importObject(t.db.db, priced(site.bundle, 2));

    const [message] = await receiver.until((r) => r.length >= 1);
    expect(JSON.parse(message!.body).data.counts.offer).toEqual({ upsert: 1, delete: 0 });
    expect(await settled(t.db.db, site.endpointId, 1)).toHaveLength(1);
  });

  it('retries a receiver that answers 500, 404 or 301, hangs, or closes the connection, until it answers 2xx', async () => {
    const failures: Array<{ answer: Answer; logged: RegExp }> = [
      { answer: 500, logged: /^HTTP 500$/ },
      { answer: 404, logged: /^HTTP 404$/ },
      { answer: 301, logged: /^HTTP 301 \(redirects are not followed\)$/ },
      { answer: 'hang', logged: /^no answer within 2000 ms$/ },
      { answer: 'close', logged: /./ },
    ];
    const cases = [];
    for (const failure of failures) {
      const receiver = await startReceiver();
      // At least two failed attempts, then success once the test has seen the log.
      const c = { ...failure, receiver, released: false, site: await siteWithEndpoint(t.db.db, receiver) }; // one import at a time
      receiver.answer = (_request, before) => (before < 2 || !c.released ? failure.answer : 200);
      cases.push(c);
    }
    for (const c of cases) await importObject(t.db.db, priced(c.site.bundle, 7));

    for (const c of cases) {
      // After the first failed attempt, the log says why.
      const failed = await waitFor(async () => {
        const [d] = await deliveriesOf(t.db.db, c.site.endpointId);
        return d && d.attempts >= 1 && d.last_error ? d : undefined;
      }, `the first failed attempt of ${c.answer}`);
      expect(failed.last_error, String(c.answer)).toMatch(c.logged);
      expect(failed.last_status).toBe(typeof c.answer === 'number' ? c.answer : null);
      c.released = true;
    }
    for (const c of cases) {
      const received = await c.receiver.until((r) => r.some((x) => x.answer === 200));
      expect(received.length, String(c.answer)).toBeGreaterThanOrEqual(3);
      // The same message every time, freshly signed.
      expect(new Set(received.map((r) => r.id)).size).toBe(1);
      expect(new Set(received.map((r) => r.body)).size).toBe(1);
      expect(received.every((r) => r.verified && r.verifiedByHand)).toBe(true);
      const [logged] = await settled(t.db.db, c.site.endpointId, 1);
      expect(logged).toMatchObject({ status: 'delivered', attempts: received.length, last_status: 200, last_error: null });
    }
  });

  it('counts its attempts in the metrics: a retry, then the delivery', async () => {
    const token = 'metrics-token-for-webhooks';
    const m = await buildTestApp({ env: { ...FAST_WEBHOOKS, METRICS_TOKEN: token } });
    const receiver = await startReceiver();
    const site = await siteWithEndpoint(m.db.db, receiver);
    receiver.answer = (_request, before) => (before < 1 ? 500 : 200);
    await importObject(m.db.db, priced(site.bundle, 11));
    await settled(m.db.db, site.endpointId, 1);
    const text = (await m.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } })).body;
    expect(text).toMatch(/^estate_webhook_attempts_total\{result="retry"\} 1$/m);
    expect(text).toMatch(/^estate_webhook_attempts_total\{result="delivered"\} 1$/m);
  });

  it('keeps an endpoint\'s messages in order: the next waits until the one before is delivered', async () => {
    const receiver = await startReceiver();
    const site = await siteWithEndpoint(t.db.db, receiver);
    let first: string | undefined;
    receiver.answer = (request, before) => {
      first ??= request.id;
      return request.id === first && before < 3 ? 503 : 204;
    };
    for (let n = 1; n <= 4; n++) await importObject(t.db.db, priced(site.bundle, 1000 + n));

    const logged = await settled(t.db.db, site.endpointId, 4);
    const ids = logged.map((d) => d.delivery_id);
    expect(logged.every((d) => d.status === 'delivered')).toBe(true);
    // What arrived: the first message four times (three refused), then the others once each, in order.
    expect(receiver.received.map((r) => r.id)).toEqual([ids[0], ids[0], ids[0], ids[0], ids[1], ids[2], ids[3]]);
    // ... and in the order of the imports.
    expect(receiver.delivered().map((r) => JSON.parse(r.body).timestamp)).toEqual(
      receiver.delivered().map((r) => JSON.parse(r.body).timestamp).sort(),
    );
  });

  it('gives a delivery up after the retry period, and then sends the endpoint\'s next message', async () => {
    const t = await buildTestApp({ env: { ...FAST_WEBHOOKS, WEBHOOK_RETRY_MAX_MS: '200', WEBHOOK_GIVE_UP_AFTER_MS: '1000' } });
    const receiver = await startReceiver();
    const site = await siteWithEndpoint(t.db.db, receiver);
    let first: string | undefined;
    receiver.answer = (request) => {
      first ??= request.id;
      return request.id === first ? 500 : 204;
    };
    await importObject(t.db.db, priced(site.bundle, 1));
    await importObject(t.db.db, priced(site.bundle, 2));

    const [gaveUp, next] = await settled(t.db.db, site.endpointId, 2);
    expect(gaveUp).toMatchObject({ delivery_id: first, status: 'failed', last_status: 500, last_error: 'HTTP 500', next_attempt_at: null });
    expect(gaveUp!.attempts).toBeGreaterThan(1);
    expect(next).toMatchObject({ status: 'delivered', last_status: 204 });
    const failedOnly = await listDeliveries(t.db.db, { failed: true });
    expect(failedOnly.map((d) => d.delivery_id)).toEqual([first]);
  });

  it('never holds up requests or imports while receivers hang, and hands unsent deliveries back when it stops', async () => {
    // Receivers that never answer, and a 60 s timeout: the requests below finish while the sender still waits.
    const t = await buildTestApp({ env: { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '60000' } });
    const receivers = await Promise.all([1, 2, 3].map(() => startReceiver()));
    const sites = [];
    for (const receiver of receivers) {
      receiver.answer = () => 'hang';
      sites.push(await siteWithEndpoint(t.db.db, receiver));
    }
    for (const site of sites) await importObject(t.db.db, priced(site.bundle, 99));
    await Promise.all(receivers.map((r) => r.until((x) => x.length >= 1)));
    expect(t.app.webhookSender!.sending).toBe(3);

    for (let i = 0; i < 20; i++) expect((await get(t, '/api/v1/offers/' + t.fixture.OFFER.krakowFull)).statusCode).toBe(200);
    const report = await importObject(t.db.db, priced(sites[0]!.bundle, 100));
    expect(report.counts.offers.changed).toBe(1);
    expect(t.app.webhookSender!.sending).toBe(3); // still waiting for the receivers

    const db = t.db;
    await t.app.close(); // stops the sender: aborts the requests and hands the deliveries back
    for (const site of sites) {
      const [first] = await deliveriesOf(db.db, site.endpointId);
      expect(first).toMatchObject({ status: 'pending', attempts: 1, last_error: 'interrupted: the service stopped while sending' });
    }
  });

  it.runIf(onPostgres)('sends each message exactly once when two instances share the database', async () => {
    const t = await buildTestApp({ env: FAST_WEBHOOKS });
    const second = await openDatabase({ databaseUrl: t.db.url!, poolMax: 5 });
    const other = await buildApp({ config: t.config, db: second, logger: false });
    await other.ready();
    closeAfterFile(async () => {
      await other.close();
      await second.close();
    });

    const receivers = await Promise.all([1, 2, 3, 4, 5].map(() => startReceiver()));
    const sites = [];
    for (const receiver of receivers) sites.push(await siteWithEndpoint(t.db.db, receiver));
    const messages = 20;
    for (let n = 0; n < messages; n++) {
      for (const site of sites) await enqueueTestMessage(t.db.db, site.endpointId);
    }
    for (const site of sites) await settled(t.db.db, site.endpointId, messages);
    for (const receiver of receivers) {
      expect(receiver.received).toHaveLength(messages);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(messages);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    }
    // Both instances took part.
    expect(t.app.webhookSender!.attempted + other.webhookSender!.attempted).toBe(5 * messages);
    expect(t.app.webhookSender!.attempted).toBeGreaterThan(0);
    expect(other.webhookSender!.attempted).toBeGreaterThan(0);
  });
});
