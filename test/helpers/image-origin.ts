/**
 * A photo origin for the tests: a local node:http server that answers each path the way the test
 * says: an image (made with sharp in the test), a status, a redirect, a slow trickle, a body that
 * does not match its Content-Length, or a huge stream. It counts the requests per path, so a test
 * can see what the service fetched (and that it fetched nothing for a refused URL).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfterFile } from './teardown.js';

export type OriginAnswer =
  | { kind: 'bytes'; body: Buffer; type?: string; delayMs?: number }
  | { kind: 'status'; status: number }
  | { kind: 'redirect'; location: string }
  /** Sends a byte every `everyMs`, never finishing within the test's patience. */
  | { kind: 'slow'; everyMs: number }
  /** Declares `declared` bytes in Content-Length and sends `body` (more or fewer), then closes. */
  | { kind: 'lying'; declared: number; body: Buffer }
  /** Streams zeros without a Content-Length until the client stops reading (or `bytes` are sent). */
  | { kind: 'endless'; bytes: number };

export interface ImageOrigin {
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** The answers by path (set or change them at any time). */
  readonly answers: Map<string, OriginAnswer>;
  /** Requests per path. */
  readonly hits: Map<string, number>;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startImageOrigin(): Promise<ImageOrigin> {
  const answers = new Map<string, OriginAnswer>();
  const hits = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path) ?? { kind: 'status', status: 404 };
    switch (answer.kind) {
      case 'bytes': {
        const send = () => response.writeHead(200, { 'content-type': answer.type ?? 'image/jpeg', 'content-length': answer.body.length }).end(answer.body);
        if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
        else send();
        return;
      }
      case 'status':
        response.writeHead(answer.status, { 'content-type': 'text/plain' }).end('no');
        return;
      case 'redirect':
        response.writeHead(302, { location: answer.location }).end();
        return;
      case 'slow': {
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        const timer = setInterval(() => response.write(Buffer.from([0xff])), answer.everyMs);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case 'lying':
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': answer.declared });
        response.write(answer.body);
        // Whatever was declared, the connection ends here.
        response.socket?.end();
        return;
      case 'endless': {
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        const chunk = Buffer.alloc(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < answer.bytes) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        response.on('close', () => (sent = answer.bytes));
        pump();
        return;
      }
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  closeAfterFile(close);
  return { origin, answers, hits, url: (path) => origin + path, close };
}

/** CRC-32 of PNG chunks (Node 20 has no zlib.crc32). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A decompression bomb: a small valid PNG whose header (IHDR) is rewritten to declare
 * `width` × `height` pixels, its checksum fixed, so only decoding would find out.
 */
export function pngDeclaring(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  // Signature (8), length (4), "IHDR" (4), then width and height; the chunk's CRC follows its 13 data bytes.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 12 + 4 + 13)), 29);
  return out;
}
