/**
 * A webhook receiver for the tests: a local node:http server that records every POST and checks
 * its signature with the Standard Webhooks reference library and with a few lines of node:crypto
 * written here (both independent of src/). How it answers is up to the test: 2xx, any status,
 * hang (never answer), or close the connection without an answer.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { closeAfterFile } from './teardown.js';

export type Answer = number | 'hang' | 'close';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The reference library accepted the signature (and the timestamp is recent). */
  verified: boolean;
  /** Our own HMAC check agreed. */
  verifiedByHand: boolean;
  /** What this request was answered. */
  answer: Answer;
  headers: http.IncomingHttpHeaders;
}

export interface Receiver {
  url: string;
  /** Every request, in the order they arrived. */
  received: Received[];
  /** The secret to check signatures with (set once the endpoint is added). */
  secret: string | undefined;
  /** Decides how to answer: gets the request and how many requests with this webhook-id came before. */
  answer: (request: Received, previousAttempts: number) => Answer;
  /** Resolves once `predicate` holds for what was received (checked on every request, and at once). */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  /** Requests that were 2xx'd. */
  delivered(): Received[];
  close(): Promise<void>;
}

/** HMAC-SHA256 over id.timestamp.body with the secret's base64-decoded bytes after whsec_. */
export function verifyByHand(secret: string, id: string, timestamp: string, body: string, signatureHeader: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return signatureHeader.split(' ').some((s) => s === `v1,${expected}`);
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const waiters: Array<() => void> = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    secret: undefined,
    answer: () => 204,
    until(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(receiver.received)) return false;
          clearTimeout(timer);
          resolve(receiver.received);
          return true;
        };
        const timer = setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(new Error(`the receiver did not get what was expected in ${timeoutMs} ms; got ${JSON.stringify(receiver.received.map((r) => [r.id, r.answer]))}`));
        }, timeoutMs);
        const waiter = () => {
          if (check()) waiters.splice(waiters.indexOf(waiter), 1);
        };
        if (!check()) waiters.push(waiter);
      });
    },
    delivered: () => receiver.received.filter((r) => typeof r.answer === 'number' && r.answer >= 200 && r.answer < 300),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      const id = header('webhook-id');
      const timestamp = header('webhook-timestamp');
      const signature = header('webhook-signature');
      let verified = false;
      let verifiedByHand = false;
      if (receiver.secret && request.method === 'POST' && request.url === path) {
        try {
          new Webhook(receiver.secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
          verified = true;
        } catch {
          verified = false;
        }
        verifiedByHand = verifyByHand(receiver.secret, id, timestamp, body, signature);
      }
      const item: Received = { id, timestamp, signature, body, verified, verifiedByHand, answer: 204, headers: request.headers };
      const previous = receiver.received.filter((r) => r.id === id).length;
      item.answer = receiver.answer(item, previous);
      receiver.received.push(item);
      if (item.answer === 'hang') hanging.add(response);
      else if (item.answer === 'close') request.socket.destroy();
      else if (item.answer >= 300 && item.answer < 400) response.writeHead(item.answer, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      else response.writeHead(item.answer, { 'content-type': 'text/plain' }).end('answer body');
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  closeAfterFile(() => receiver.close());
  return receiver;
}
