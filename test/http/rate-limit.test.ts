/**
 * Per-key rate limiting (RATE_LIMIT_PER_MINUTE): 429 {"detail":"Rate limit exceeded"} with
 * Retry-After and the RateLimit / RateLimit-Policy headers of draft-ietf-httpapi-ratelimit-headers-07,
 * counted per key hash, in process or shared through Redis, and served unlimited when Redis is away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { hashKey } from '../../src/features/access/model.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertFixture, KEYS } from '../helpers/fixtures.js';
import { captureLog } from '../helpers/log-capture.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { checkResponsesAgainstOpenApi } from '../helpers/openapi-responses.js';

const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const getOrg = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: key } });

/** The parts of a `RateLimit: limit=3, remaining=2, reset=60` header. */
function parseRateLimit(value: unknown): { limit: number; remaining: number; reset: number } {
  expect(typeof value).toBe('string');
  const match = /^limit=(\d+), remaining=(\d+), reset=(\d+)$/.exec(value as string);
  expect(match, `RateLimit header "${String(value)}"`).not.toBeNull();
  return { limit: Number(match![1]), remaining: Number(match![2]), reset: Number(match![3]) };
}

async function redisAvailable(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const haveRedis = await redisAvailable(SHARED_REDIS);

// One database for the whole file; every app below has its own counters.
let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await insertFixture(db.db);
});
afterAll(() => db.destroy());

async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({ KEY_CACHE_TTL_MS: '0', LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, db, logger: false });
  checkResponsesAgainstOpenApi(app);
  await app.ready();
  return app;
}

describe('rate limit off (the default)', () => {
  const t = {} as { app: FastifyInstance };
  beforeAll(async () => {
    t.app = await appWith({});
  });
  afterAll(() => t.app.close());

  it('sends no RateLimit headers and never 429s', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await getOrg(t.app, KEYS.activeA1);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
      expect(res.headers['ratelimit-policy']).toBeUndefined();
    }
  });
});

describe('rate limit in process', () => {
  const t = {} as { app: FastifyInstance };
  beforeAll(async () => {
    t.app = await appWith({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.app.close());

  it('counts down in RateLimit, then answers 429 with Retry-After and the contract body', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await getOrg(t.app, KEYS.activeA1);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('3;w=60');
      const state = parseRateLimit(res.headers['ratelimit']);
      expect(state.limit).toBe(3);
      expect(state.remaining).toBe(3 - i);
      expect(state.reset).toBeGreaterThan(0);
      expect(state.reset).toBeLessThanOrEqual(60);
    }
    const limited = await getOrg(t.app, KEYS.activeA1);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/json/);
    expect(limited.json()).toEqual({ detail: 'Rate limit exceeded' });
    expect(limited.headers['x-content-type-options']).toBe('nosniff');
    expect(limited.headers['ratelimit-policy']).toBe('3;w=60');
    const state = parseRateLimit(limited.headers['ratelimit']);
    expect(state.remaining).toBe(0);
    // Retry-After and reset name the same instant (draft section 4).
    expect(Number(limited.headers['retry-after'])).toBe(Math.max(1, state.reset));
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('limits every /api/v1 operation, POSTs included', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/offers',
      headers: { authorization: KEYS.activeA1, 'content-type': 'application/json' },
      payload: '{"pagination":{}}',
    });
    expect(res.statusCode).toBe(429);
  });

  it('keeps a separate budget for every key, including Bearer and white-space forms of the same key', async () => {
    const other = await getOrg(t.app, KEYS.activeA2);
    expect(other.statusCode).toBe(200);
    expect(parseRateLimit(other.headers['ratelimit']).remaining).toBe(2);
    // The same key, presented differently, is the same budget.
    const bearer = await getOrg(t.app, `Bearer ${KEYS.activeA1}`);
    expect(bearer.statusCode).toBe(429);
    const spaced = await getOrg(t.app, `  ${KEYS.activeA1} `);
    expect(spaced.statusCode).toBe(429);
  });

  it('does not count or limit refused keys, /health or /openapi.json', async () => {
    for (let i = 0; i < 10; i++) {
      const unknown = await getOrg(t.app, KEYS.unknown);
      expect(unknown.statusCode).toBe(401);
      expect(unknown.headers['ratelimit']).toBeUndefined();
      const missing = await t.app.inject({ method: 'GET', url: '/api/v1/organization' });
      expect(missing.statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });
});

describe.runIf(haveRedis)('rate limit shared through Redis', () => {
  const prefix = `ecs-test:${randomBytes(6).toString('hex')}:`;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let redis: Redis;

  beforeAll(async () => {
    const config = loadConfig({
      KEY_CACHE_TTL_MS: '0',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '4',
      REDIS_URL: SHARED_REDIS,
      RATE_LIMIT_REDIS_PREFIX: prefix,
    });
    // Two instances of the service on one database and one Redis.
    first = await buildApp({ config, db, logger: false });
    second = await buildApp({ config, db, logger: false });
    checkResponsesAgainstOpenApi(first);
    checkResponsesAgainstOpenApi(second);
    await Promise.all([first.ready(), second.ready()]);
    redis = new Redis(SHARED_REDIS);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await first.close();
    await second.close();
  });

  it('two instances share one budget per key', async () => {
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (const app of [first, second, first, second, first, second]) {
      const res = await getOrg(app, KEYS.activeA1);
      statuses.push(res.statusCode);
      remaining.push(parseRateLimit(res.headers['ratelimit']).remaining);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual([3, 2, 1, 0, 0, 0]);
    // Another key still has its whole budget on both instances.
    expect((await getOrg(second, KEYS.activeB)).statusCode).toBe(200);
  });

  it('stores counters under the hash of the key, never the key, with the window as expiry', async () => {
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.sort()).toEqual([`${prefix}${hashKey(KEYS.activeA1)}`, `${prefix}${hashKey(KEYS.activeB)}`].sort());
    for (const key of keys) {
      expect(key).not.toContain(KEYS.activeA1);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });
});

describe('rate limit when Redis is unreachable (fails open)', () => {
  let redisProcess: ChildProcess | undefined;

  afterAll(() => {
    redisProcess?.kill('SIGKILL');
  });

  it('serves every request and logs a warning when Redis never answers', async () => {
    const log = captureLog();
    const port = await freePort(); // nothing listens there
    const config = loadConfig({ KEY_CACHE_TTL_MS: '0', RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: `redis://127.0.0.1:${port}` });
    const app = await buildApp({ config, db, logger: log.options('warn') });
    await app.ready();
    try {
      for (let i = 0; i < 6; i++) {
        const res = await getOrg(app, KEYS.activeA1);
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit']).toBeUndefined();
      }
      expect(log.text()).toMatch(/rate limit store/);
      expect(log.text()).not.toContain(KEYS.activeA1);
      expect(log.text()).not.toContain(hashKey(KEYS.activeA1));
    } finally {
      await app.close();
    }
  });

  it.runIf(haveRedis)('keeps serving when its Redis dies mid-run, and limits again when Redis is back', async () => {
    const port = await freePort();
    const startRedis = () => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      return child;
    };
    redisProcess = startRedis();
    await waitForPort(port);
    const config = loadConfig({
      KEY_CACHE_TTL_MS: '0',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '2',
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    const app = await buildApp({ config, db, logger: false });
    await app.ready();
    try {
      expect((await getOrg(app, KEYS.activeA1)).statusCode).toBe(200);
      expect((await getOrg(app, KEYS.activeA1)).statusCode).toBe(200);
      expect((await getOrg(app, KEYS.activeA1)).statusCode).toBe(429);

      redisProcess.kill('SIGKILL');
      await new Promise((resolve) => redisProcess!.once('exit', resolve));
      for (let i = 0; i < 5; i++) expect((await getOrg(app, KEYS.activeA1)).statusCode).toBe(200);

      // A fresh Redis (empty counters): the limit applies again once the client reconnects.
      redisProcess = startRedis();
      await waitForPort(port);
      const deadline = Date.now() + 15_000;
      let statuses: number[] = [];
      while (Date.now() < deadline) {
        const res = await getOrg(app, KEYS.activeA2);
        statuses.push(res.statusCode);
        if (res.statusCode === 429) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(statuses.at(-1)).toBe(429);
      statuses = statuses.filter((s) => s !== 200 && s !== 429);
      expect(statuses).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
