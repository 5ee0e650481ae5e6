/**
 * Keys never reach the logs: the app's log output (every level, pino destination captured) after
 * requests with valid, Bearer-form, invalid, inactive and expired keys, failing requests, and a
 * database that goes away, holds neither any key nor any key's SHA-256. Nor does any response.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/features/access/model.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { KEYS, OFFER } from '../helpers/fixtures.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';

const ALL_KEYS = Object.values(KEYS);
/** A key that exists nowhere, in the same shape. */
const STRANGER = 'ecs_strangerSTRANGERstrangerSTRANGERstrangerST';
const SECRETS = [...ALL_KEYS, STRANGER].flatMap((key) => [key, hashKey(key)]);

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${where} contains ${secret.slice(0, 8)}…`).toBe(false);
}

describe('secrets stay out of logs and answers', () => {
  let t: TestApp;
  let log: LogCapture;
  const bodies: string[] = [];

  beforeAll(async () => {
    log = captureLog();
    t = await buildTestApp({ logger: log.options('trace') });
  });
  afterAll(() => t.destroy());

  const send = async (options: InjectOptions) => {
    const res = await t.app.inject(options);
    bodies.push(`${JSON.stringify(res.headers)}\n${res.body}`);
    return res;
  };

  it('logs nothing secret for keys in every form and for failing requests', async () => {
    const keyForms = ALL_KEYS.flatMap((key) => [key, `Bearer ${key}`, `bearer   ${key}  `, `  ${key}`, `${key}x`, key.toUpperCase()]);
    for (const authorization of [...keyForms, STRANGER, `Bearer ${STRANGER}`, 'Bearer', '']) {
      await send({ method: 'GET', url: '/api/v1/organization', headers: { authorization } });
      await send({ method: 'GET', url: `/api/v1/offers/${OFFER.krakowFull}?include=agent`, headers: { authorization } });
      await send({ method: 'GET', url: '/api/v1/offers/not-a-uuid', headers: { authorization } });
      await send({ method: 'POST', url: '/api/v1/offers', headers: { authorization, 'content-type': 'application/json' }, payload: '{"pagination":' });
      await send({ method: 'DELETE', url: '/api/v1/offers', headers: { authorization } });
      await send({ method: 'GET', url: '/api/v1/nowhere', headers: { authorization } });
      await send({
        method: 'POST',
        url: '/api/v1/offers',
        headers: { authorization, 'content-type': 'application/json' },
        payload: 'x'.repeat(t.config.bodyLimit + 1),
      });
    }
    const text = log.text();
    expect(log.lines().length).toBeGreaterThan(100); // the log really was written
    expectNoSecret(text, 'the log');
    // The Authorization header, wherever a request is logged with its headers, is redacted.
    expect(text).not.toMatch(/"authorization":"(?!\[redacted\])/i);
    expectNoSecret(bodies.join('\n'), 'a response');
  });

  it('does not log a key that a client put in the URL by mistake', async () => {
    // Keys carry the ecs_ prefix precisely so that they can be recognised (and scrubbed) anywhere.
    const before = log.text().length;
    await send({ method: 'GET', url: `/api/v1/organization?api_key=${KEYS.activeA1}` });
    await send({ method: 'GET', url: `/api/v1/offers/${KEYS.activeA2}` });
    await send({ method: 'GET', url: `/${KEYS.activeB}` });
    const written = log.text().slice(before);
    expect(written.length).toBeGreaterThan(0);
    expectNoSecret(written, 'the log');
  });

  it('logs nothing secret when the database fails under authenticated requests', async () => {
    const faultLog = captureLog();
    const broken = await buildTestApp({ logger: faultLog.options('trace') });
    await broken.db.close(); // the database goes away under the running app
    for (const authorization of [KEYS.activeA1, `Bearer ${KEYS.activeB}`, STRANGER]) {
      const res = await broken.app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization } });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expectNoSecret(res.body, 'a fault answer');
    }
    await broken.app.close();
    await broken.db.destroy();
    const faults = faultLog.lines().filter((line) => Number(line.level) >= 40);
    expect(faults.length).toBeGreaterThan(0);
    expectNoSecret(faultLog.text(), 'the log');
  });
});
