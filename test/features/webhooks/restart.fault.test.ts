/**
 * A restart loses no webhook: the real service is killed (SIGKILL) while a delivery waits for its
 * next retry, and while a request is on the wire; after a restart on the same database both
 * messages still arrive, with the same webhook-id, signed. The commands run as real processes
 * (through the service's control socket on the embedded database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase, runCliProcess, startServer, type PreparedDatabase, type ServerProcess } from '../../helpers/processes.js';
import { EXAMPLE_OFFER, EXAMPLE_WEBSITE, exampleBundleWithPrice } from '../../helpers/example-bundle.js';
import { FAST_WEBHOOKS, waitFor } from '../../helpers/webhooks.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';


const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-webhook-restart-'));
let database: PreparedDatabase;
let env: Record<string, string | undefined>;
let server: ServerProcess;
let receiver: Receiver;

/** Retries after 200 ms; a request may take 2 s, so a dead sender's lease ends after 7 s. */
/** Real processes start slowly on a busy machine. */
const PROCESS_TIMEOUT_MS = 240_000;

const SERVER_ENV = { ...FAST_WEBHOOKS, WEBHOOK_RETRY_FIRST_MS: '200' };

beforeAll(async () => {
  database = await prepareDatabase();
  env = { DATABASE_URL: undefined, DATA_DIR: undefined, ...database.env };
  server = await startServer({ ...env, ...SERVER_ENV });
  receiver = await startReceiver();
  const imported = await runCliProcess(['import', bundleWithPrice(500_000), '--json'], env);
  expect(imported.code, imported.stderr).toBe(0);
  const added = await runCliProcess(['webhooks', 'add', '--website', EXAMPLE_WEBSITE, '--url', receiver.url, '--json'], env);
  expect(added.code, added.stderr).toBe(0);
  receiver.secret = (JSON.parse(added.stdout) as { secret: string }).secret;
}, PROCESS_TIMEOUT_MS);
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  await database?.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const bundleWithPrice = (price: number) => exampleBundleWithPrice(tmp, price);

async function killAndRestart(): Promise<void> {
  server.child.kill('SIGKILL');
  expect(await server.exited).toBe('SIGKILL');
  server = await startServer({ ...env, ...SERVER_ENV });
}

interface LoggedDelivery {
  delivery_id: string;
  status: string;
  attempts: number;
}

async function deliveries(): Promise<LoggedDelivery[]> {
  const run = await runCliProcess(['webhooks', 'deliveries', '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as LoggedDelivery[];
}

describe('webhooks across a crash of the service', () => {
  it('a delivery waiting for its next retry is sent after the restart', async () => {
    receiver.answer = () => 500;
    const imported = await runCliProcess(['import', bundleWithPrice(600_000), '--json'], env);
    expect(imported.code, imported.stderr).toBe(0);
    const [first] = await receiver.until((r) => r.length >= 2); // refused twice: mid-retry
    const id = first!.id;

    await killAndRestart();
    receiver.answer = () => 204;
    const received = await receiver.until((r) => r.some((x) => x.id === id && x.answer === 204), 60_000);
    const attempts = received.filter((r) => r.id === id);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.every((r) => r.verified && r.verifiedByHand)).toBe(true);
    expect(JSON.parse(attempts.at(-1)!.body)).toMatchObject({ type: 'content.changed', data: { website_id: EXAMPLE_WEBSITE } });

    const logged = await waitFor(async () => (await deliveries()).find((d) => d.delivery_id === id && d.status === 'delivered'), 'the delivered log entry');
    expect(logged.attempts).toBe(attempts.length);
  }, PROCESS_TIMEOUT_MS);

  it('a delivery whose request was on the wire is sent again once the dead sender\'s lease ends', async () => {
    const before = receiver.received.length;
    receiver.answer = () => 'hang';
    const imported = await runCliProcess(['import', bundleWithPrice(700_000), '--json'], env);
    expect(imported.code, imported.stderr).toBe(0);
    const hanging = (await receiver.until((r) => r.length > before))[before]!;

    await killAndRestart(); // while the receiver holds the request
    receiver.answer = () => 204;
    const received = await receiver.until((r) => r.some((x) => x.id === hanging.id && x.answer === 204), 60_000);
    expect(received.filter((r) => r.id === hanging.id && r.answer === 204)).toHaveLength(1);
    expect(received.filter((r) => r.id === hanging.id).every((r) => r.verified)).toBe(true);
    expect(JSON.parse(hanging.body).data.counts.offer).toEqual({ upsert: 1, delete: 0 });
    await waitFor(async () => (await deliveries()).find((d) => d.delivery_id === hanging.id && d.status === 'delivered'), 'the delivered log entry');
  }, PROCESS_TIMEOUT_MS);
});
