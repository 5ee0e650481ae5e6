/**
 * The request log is written asynchronously and in batches (src/http/plugins/log-destination.ts);
 * these tests hold it to its promise: no line is lost when the service stops on SIGTERM right after
 * a burst of requests, and a line of a quiet service still shows without more traffic.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { KEYS, OFFER } from '../helpers/fixtures.js';
import { useServerFixture } from '../helpers/server-fixture.js';
import { scaled } from '../helpers/scale.js';

const REQUESTS = scaled('LOG_FLUSH_REQUESTS', 600, 3000);

/** GETs `path` on a kept-alive agent; resolves with the status. */
function get(agent: http.Agent, port: number, path: string, key?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent, headers: key ? { authorization: key } : {} }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

/** The request lines ("msg":"request") among a process's output, by request id. */
function requestLines(output: string): { reqId: string; status: number }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { reqId: string; status: number });
}

describe('the request log, buffered', () => {
  const fixture = useServerFixture();

  it(`loses no line when SIGTERM comes right after ${REQUESTS} requests`, async () => {
    const server = await fixture.startServer({ LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const paths = [
      ['/api/v1/organization', KEYS.activeA1],
      [`/api/v1/offers/${OFFER.krakowFull}`, KEYS.activeA1],
      ['/api/v1/organization', 'ecs_unknownunknownunknownunknownunknownunkno'],
      ['/api/v1/organization', undefined],
    ] as const;
    const statuses = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => {
        const [path, key] = paths[i % paths.length]!;
        return get(agent, server.port, path, key);
      }),
    );
    agent.destroy();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const lines = requestLines(server.output());
    expect(lines).toHaveLength(REQUESTS);
    expect(new Set(lines.map((l) => l.reqId)).size).toBe(REQUESTS);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    expect(lines.filter((l) => l.status === 200)).toHaveLength(count(200));
    expect(lines.filter((l) => l.status === 401)).toHaveLength(count(401));
    expect(count(401)).toBe(REQUESTS / 2);
    // No key ever reaches the log, buffered or not.
    expect(server.output()).not.toContain(KEYS.activeA1);
  });

  it('shows the line of a single request on a quiet service without waiting for more traffic', async () => {
    const server = await fixture.startServer({ LOG_LEVEL: 'info' });
    const agent = new http.Agent({ keepAlive: false });
    expect(await get(agent, server.port, '/api/v1/organization', KEYS.activeA1)).toBe(200);
    // The buffer is written on a timer; poll for the line (the process keeps running meanwhile).
    const deadline = Date.now() + 30_000;
    while (requestLines(server.output()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(requestLines(server.output())).toHaveLength(1);
    expect(server.child.exitCode).toBeNull();
  });
});
