/**
 * HTTP/1.1 over raw sockets (node:net), for the tests of what Node's parser and the connections do
 * (protocol edges, shutdown): the bytes sent are exactly the bytes written, and answers are taken
 * apart by hand, so that a stray body, a missing answer or a closed connection shows as such.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

/**
 * The first complete response at the start of `bytes`, or undefined while it is incomplete.
 * `bodiless`: the request was HEAD (the answer has headers only, whatever Content-Length says).
 * `closed`: the connection has ended, so a body without length or chunks ends here. Interim 1xx
 * answers are skipped.
 */
export function parseResponse(bytes: string, bodiless: boolean, closed = false): { response: RawResponse; rest: string } | undefined {
  let at = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) return undefined;
    const [statusLine, ...lines] = bytes.slice(at, end).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
    if (!match) throw new Error(`not a status line: ${JSON.stringify(bytes.slice(at, at + 80))}`);
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const start = end + 4;
    if (status >= 100 && status < 200) {
      at = start;
      continue;
    }
    if (bodiless || status === 204 || status === 304) return { response: { status, headers, body: '' }, rest: bytes.slice(start) };
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (bytes.length - start < length) return undefined;
      return { response: { status, headers, body: bytes.slice(start, start + length) }, rest: bytes.slice(start + length) };
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      let body = '';
      let pos = start;
      for (;;) {
        const lineEnd = bytes.indexOf('\r\n', pos);
        if (lineEnd < 0) return undefined;
        const size = parseInt(bytes.slice(pos, lineEnd), 16);
        if (size === 0) {
          if (bytes.length < lineEnd + 4) return undefined;
          return { response: { status, headers, body }, rest: bytes.slice(lineEnd + 4) };
        }
        if (bytes.length < lineEnd + 2 + size + 2) return undefined;
        body += bytes.slice(lineEnd + 2, lineEnd + 2 + size);
        pos = lineEnd + 2 + size + 2;
      }
    }
    // No length: the body runs to the end of the connection.
    return closed ? { response: { status, headers, body: bytes.slice(start) }, rest: '' } : undefined;
  }
}

/** Every complete response in `bytes`; `bodiless[i]` says the i-th request was HEAD. */
export function parseResponses(bytes: string, bodiless: readonly boolean[], closed = true): { responses: RawResponse[]; rest: string } {
  const responses: RawResponse[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const parsed = parseResponse(rest, bodiless[responses.length] ?? false, closed);
    if (!parsed) break;
    responses.push(parsed.response);
    rest = parsed.rest;
  }
  return { responses, rest };
}

export interface Exchange {
  /** Everything the server sent, as latin1 (one character per byte). */
  bytes: string;
  /** The server ended the connection (EOF or reset) before `waitMs` ran out. */
  closed: boolean;
  /** A socket error (ECONNRESET, ...), if the connection ended with one. */
  error?: string;
}

/**
 * Connects, writes each part in turn (`pauseMs` apart) and collects what comes back until the
 * server ends the connection or `waitMs` passes with the connection still open. The client never
 * half-closes: a server may take an early FIN for an aborted request.
 */
export function exchange(port: number, parts: string | readonly string[], options: { waitMs?: number; pauseMs?: number } = {}): Promise<Exchange> {
  const { waitMs = 5_000, pauseMs = 0 } = options;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let bytes = '';
    let settled = false;
    const finish = (closed: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes, closed, ...(error ? { error } : {}) });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d: Buffer) => (bytes += d.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(true, error.code ?? error.message));
    socket.on('close', () => finish(true));
    void (async () => {
      for (const part of typeof parts === 'string' ? [parts] : parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      }
    })();
  });
}
