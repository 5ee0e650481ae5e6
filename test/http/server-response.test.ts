/**
 * The service's response class (src/http/server-response.ts), on a plain Node server made with the
 * service's server options, over raw sockets: an answer closes its connection when its request
 * asked for an Upgrade, or when its connection was marked (a shutdown, src/http/graceful-close.ts),
 * however the head is written; every other answer keeps the connection alive, as Node's own.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTP_SERVER_OPTIONS } from '../../src/http/plugins/protocol.js';
import { closeAfterAnswer } from '../../src/http/server-response.js';
import { trackConnections } from '../../src/http/graceful-close.js';
import { exchange, parseResponses } from '../helpers/raw-http.js';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Handler): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(HTTP_SERVER_OPTIONS, handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The ways a handler writes a head: explicitly (with or without a reason or headers), or implicitly. */
const HEADS: Record<string, Handler> = {
  'writeHead(status, headers)': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
    response.end('ok');
  },
  'writeHead(status, reason, headers)': (_request, response) => {
    response.writeHead(200, 'Fine', { 'content-length': 2 });
    response.end('ok');
  },
  'writeHead(status, raw header array)': (_request, response) => {
    response.writeHead(200, ['content-length', '2', 'x-a', '1']);
    response.end('ok');
  },
  'setHeader() then end()': (_request, response) => {
    response.setHeader('content-length', 2);
    response.end('ok');
  },
};

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
const UPGRADE = 'GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';

describe('the service response', () => {
  for (const [name, handler] of Object.entries(HEADS)) {
    it(`${name}: keep-alive as Node's own; Connection: close for an Upgrade request, the head otherwise the same`, async () => {
      const { port } = await serve(handler);
      const plain = await exchange(port, [GET, GET], { waitMs: 300, pauseMs: 50 });
      const { responses } = parseResponses(plain.bytes, [false, false], plain.closed);
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      expect(responses[0]!.headers.connection).toBe('keep-alive');
      expect(plain.closed).toBe(false);

      const upgraded = await exchange(port, [UPGRADE, GET], { waitMs: 1_000, pauseMs: 50 });
      const answers = parseResponses(upgraded.bytes, [false], upgraded.closed).responses;
      expect(answers).toHaveLength(1);
      expect(answers[0]!.headers.connection).toBe('close');
      expect(answers[0]!.body).toBe('ok');
      expect(upgraded.closed).toBe(true);
      // The status line's reason and the handler's headers are untouched.
      expect(upgraded.bytes.split('\r\n')[0]).toBe(plain.bytes.split('\r\n')[0]);
      if (name.includes('array')) expect(answers[0]!.headers['x-a']).toBe('1');
    });
  }

  it('closeAfterAnswer(): the next answer on that connection closes it; other connections stay alive', async () => {
    const marked = new Set<Socket>();
    const { port } = await serve((request, response) => {
      // The first request on a connection asking for it marks its connection before the head.
      if (request.headers['x-mark'] !== undefined) {
        closeAfterAnswer(request.socket);
        marked.add(request.socket);
      }
      response.end('ok');
    });
    const [markedConnection, other] = await Promise.all([
      exchange(port, ['GET / HTTP/1.1\r\nHost: x\r\nX-Mark: 1\r\n\r\n', GET], { waitMs: 1_000, pauseMs: 50 }),
      exchange(port, [GET, GET], { waitMs: 300, pauseMs: 50 }),
    ]);
    expect(marked.size).toBe(1);
    const first = parseResponses(markedConnection.bytes, [false], markedConnection.closed).responses;
    expect(first).toHaveLength(1);
    expect(first[0]!.headers.connection).toBe('close');
    expect(markedConnection.closed).toBe(true);
    const both = parseResponses(other.bytes, [false, false], other.closed).responses;
    expect(both.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive']);
    expect(other.closed).toBe(false);
  });

  it('trackConnections().closing(): an answer under way and every answer on a connection made later close their connection', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { server, port } = await serve((request, response) => {
      if (request.url === '/slow') void held.then(() => response.end('slow'));
      else response.end('ok');
    });
    const tracker = trackConnections(server);
    // A kept-alive connection answered before the shutdown, then a request held under way.
    const before = exchange(port, [GET, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n'], { waitMs: 2_000, pauseMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    tracker.closing();
    release!();
    const after = await exchange(port, [GET], { waitMs: 1_000 });
    const early = await before;
    const answers = parseResponses(early.bytes, [false, false], early.closed).responses;
    expect(answers.map((r) => [r.body, r.headers.connection])).toEqual([
      ['ok', 'keep-alive'],
      ['slow', 'close'],
    ]);
    expect(early.closed).toBe(true);
    const late = parseResponses(after.bytes, [false], after.closed).responses;
    expect(late[0]!.headers.connection).toBe('close');
    expect(after.closed).toBe(true);
  });
});
