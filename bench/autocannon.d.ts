/**
 * The part of autocannon's programmatic API the benchmark uses (the package ships no types).
 * See node_modules/autocannon/README.md, "autocannon(opts[, cb])".
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    [key: string]: unknown;
  }

  interface RequestEntry {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest | null | undefined;
  }

  interface Client {
    setRequests(requests: RequestEntry[]): void;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    sampleInt?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    requests?: RequestEntry[];
    /** Called with each connection's client when it is created. */
    setupClient?: (client: Client) => void;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
