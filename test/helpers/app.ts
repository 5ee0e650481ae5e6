/**
 * The app on a fresh, migrated test database with the fixture loaded; both are closed after the
 * test file (helpers/teardown.ts), or earlier by destroy(). Every answer it gives is checked against
 * the response schemas of /openapi.json (helpers/openapi-responses.ts).
 *
 *   const t = await buildTestApp();
 *   const res = await t.app.inject({ method: 'GET', url: '/api/v1/branches', headers: auth() });
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createTestDb, type TestDb } from './db.js';
import { checkResponsesAgainstOpenApi } from './openapi-responses.js';
import { closeAfterFile } from './teardown.js';
import * as fixture from './fixtures.js';

export interface TestApp {
  app: FastifyInstance;
  db: TestDb;
  config: Config;
  fixture: typeof fixture;
  destroy(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment overrides for loadConfig (e.g. { BODY_LIMIT: '2048' }). */
  env?: Record<string, string>;
  /** Load the fixture (default true). */
  seed?: boolean;
  logger?: FastifyServerOptions['logger'] | boolean;
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDb();
  if (options.seed !== false) await fixture.insertFixture(db.db);
  // Key lookups are not cached by default so that tests see key changes at once.
  const config = loadConfig({ KEY_CACHE_TTL_MS: '0', LOG_LEVEL: 'silent', ...options.env });
  const app = await buildApp({ config, db, logger: options.logger ?? false });
  // Every answer is checked against /openapi.json; a mismatch fails the test (test/setup.ts).
  checkResponsesAgainstOpenApi(app);
  await app.ready();
  let destroyed = false;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    await app.close();
    await db.destroy();
  };
  closeAfterFile(destroy);
  return { app, db, config, fixture, destroy };
}

/** Authorization header with organization A's key (or another key). */
export const auth = (key: string = fixture.KEYS.activeA1): Record<string, string> => ({ authorization: key });

export interface SendOptions {
  key?: string | null;
  headers?: Record<string, string>;
}

/** GET with organization A's key unless told otherwise (key: null sends none). */
export function get(t: TestApp, url: string, options: SendOptions = {}) {
  const key = options.key === undefined ? fixture.KEYS.activeA1 : options.key;
  return t.app.inject({ method: 'GET', url, headers: { ...(key === null ? {} : { authorization: key }), ...options.headers } });
}

/** POST of a JSON body (an object is serialized; a string is sent as it is). */
export function post(t: TestApp, url: string, body?: unknown, options: SendOptions = {}) {
  const key = options.key === undefined ? fixture.KEYS.activeA1 : options.key;
  const headers: Record<string, string> = { ...(key === null ? {} : { authorization: key }) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...options.headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}
