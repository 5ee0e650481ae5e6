/**
 * Where the metrics are read: a listener of their own (METRICS_PORT on METRICS_HOST, 127.0.0.1 by
 * default), and the bearer-token check shared with GET /metrics on the main listener (which exists
 * only when METRICS_TOKEN is set). Nothing here is reachable unless an operator configured it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the text exposition comes from: this process's registry, or the cluster's sum. */
export type MetricsText = () => Promise<string>;

export const METRICS_PATH = '/metrics';

/**
 * Whether an Authorization header carries `Bearer <token>`. Both sides are hashed first, so the
 * comparison takes the same time whatever the header holds.
 */
export function bearerMatches(header: string | string[] | undefined, token: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(value.trim());
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

export interface MetricsListener {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/**
 * Serves GET (and HEAD) /metrics on a plain node:http listener; every other request gets a JSON
 * 404 or 405, and a missing or wrong token (when one is set) a 401.
 */
export async function serveMetrics(options: {
  host: string;
  port: number;
  token: string | undefined;
  contentType: string;
  read: MetricsText;
  onError: (error: unknown) => void;
}): Promise<MetricsListener> {
  const answer = (response: http.ServerResponse, status: number, detail: string, headers: Record<string, string> = {}) => {
    const body = JSON.stringify({ detail });
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers });
    response.end(body);
  };
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) return answer(response, 404, 'Not Found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
      return answer(response, 401, 'Not authenticated', { 'www-authenticate': 'Bearer' });
    }
    options.read().then(
      (text) => {
        response.writeHead(200, { 'content-type': options.contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.onError(error);
        answer(response, 503, 'Service Unavailable');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  server.on('error', options.onError);
  return {
    address: server.address() as AddressInfo,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
