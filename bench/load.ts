/**
 * The load driver: runs autocannon against one server with a pool of distinct requests, a
 * warm-up that is thrown away, and a bounded measured run; it keeps every latency (autocannon's
 * own histogram has 1 ms resolution, too coarse for a 17-byte floor), counts status codes and
 * connection errors, samples the server's resident memory meanwhile, and charges the server's CPU
 * time over the measured part to its answers.
 */
import autocannon from 'autocannon';
import { procCpuSeconds, RssSampler } from './processes.js';

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export interface LoadOptions {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly pool: readonly RequestSpec[];
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** Send every request of the pool once before the warm-up (fills a response cache). */
  readonly prePass: boolean;
  /** Give up the pre-pass after this long (quick runs). */
  readonly prePassMaxSeconds?: number;
  readonly expectedStatus: number;
  /** Process whose resident memory is sampled during the measured run. */
  readonly rssPid?: number;
  /** The server's process, whose CPU time over the measured run is divided by its answers. */
  readonly cpuPid?: number;
}

export interface LoadResult {
  readonly responses: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  /** Latency in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
  /** Answers by status, warm-up included. */
  readonly statusCounts: Readonly<Record<string, number>>;
  /** Answers with another status than the expected one, warm-up included. */
  readonly unexpected: number;
  /** Connection errors and timeouts reported by autocannon. */
  readonly errors: number;
  readonly timeouts: number;
  readonly bytesPerResponse: number;
  readonly megabytesPerSecond: number;
  readonly peakRssKb: number | undefined;
  /**
   * The server's CPU time (user + system, every thread) per answer of the measured run, in
   * microseconds; undefined without cpuPid or /proc. Unlike requests/s, it does not depend on how the
   * machine's cores are shared between the server and the load generator.
   */
  readonly cpuMicrosPerAnswer: number | undefined;
}

/**
 * Deals the pool out to the connections (connection k takes requests k, k+C, k+2C, ...), so that
 * together they walk through every distinct request while each one sends prebuilt requests:
 * building a request per send would cost the load generator a quarter of its speed, and the floor
 * would then measure the generator rather than the server.
 */
function dealPool(pool: readonly RequestSpec[], connections: number) {
  if (pool.length === 0) throw new Error('empty request pool');
  const hands: RequestSpec[][] = Array.from({ length: connections }, () => []);
  if (pool.length >= connections) pool.forEach((spec, i) => hands[i % connections]!.push(spec));
  else hands.forEach((hand, k) => hand.push(pool[k % pool.length]!));
  let next = 0;
  return (client: { setRequests(requests: object[]): void }) => {
    const hand = hands[next++ % connections]!;
    // fresh objects: autocannon writes Content-Length and the built buffer into them
    client.setRequests(hand.map((spec) => ({ method: spec.method, path: spec.path, headers: { ...spec.headers }, body: spec.body ?? Buffer.alloc(0) })));
  };
}

class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  count = 0;
  bytes = 0;
  readonly statusCounts: Record<string, number> = {};

  record(status: number, bytes: number, milliseconds: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = milliseconds;
    this.bytes += bytes;
    const key = String(status);
    this.statusCounts[key] = (this.statusCounts[key] ?? 0) + 1;
  }

  percentiles(): { p50: number; p99: number; mean: number; max: number } {
    if (this.count === 0) return { p50: NaN, p99: NaN, mean: NaN, max: NaN };
    const sorted = this.values.slice(0, this.count).sort();
    const at = (q: number) => sorted[Math.min(this.count - 1, Math.floor(q * this.count))]!;
    let sum = 0;
    for (const v of sorted) sum += v;
    return { p50: at(0.5), p99: at(0.99), mean: sum / this.count, max: sorted[this.count - 1]! };
  }
}

function cannon(origin: string, pool: readonly RequestSpec[], options: { connections: number; duration?: number; amount?: number }) {
  return autocannon({
    url: origin,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 1 }),
    timeout: 30,
    // stop within 100 ms of the duration (autocannon checks once per sample interval)
    sampleInt: 100,
    setupClient: dealPool(pool, options.connections),
  });
}

/**
 * Warm-up and measurement are one continuous run: only answers that arrive after the warm-up
 * count. Starting a fresh run for the measurement would open with 50 requests in flight and
 * undercount slow scenarios whose latency is close to the window.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.prePass) {
    const connections = Math.max(1, Math.min(options.connections, options.pool.length));
    const pass = cannon(options.origin, options.pool, { connections, amount: Math.max(connections, options.pool.length) });
    const cap = options.prePassMaxSeconds !== undefined ? setTimeout(() => pass.stop(), options.prePassMaxSeconds * 1000) : undefined;
    await pass;
    if (cap) clearTimeout(cap);
  }
  const recorder = new LatencyRecorder();
  const allStatuses: Record<string, number> = {};
  const warmupMs = options.warmupSeconds * 1000;
  let sampler: RssSampler | undefined;
  let cpuAtBoundary: number | undefined;
  const instance = cannon(options.origin, options.pool, { connections: options.connections, duration: options.warmupSeconds + options.durationSeconds });
  const boundary = performance.now() + warmupMs;
  const startSampling = setTimeout(() => {
    if (options.rssPid !== undefined) sampler = new RssSampler(options.rssPid).start();
    if (options.cpuPid !== undefined) cpuAtBoundary = procCpuSeconds(options.cpuPid);
  }, warmupMs);
  instance.on('response', (_client: unknown, status: number, bytes: number, milliseconds: number) => {
    const key = String(status);
    allStatuses[key] = (allStatuses[key] ?? 0) + 1;
    if (performance.now() >= boundary) recorder.record(status, bytes, milliseconds);
  });
  const result = await instance;
  const end = performance.now();
  const cpuAtEnd = options.cpuPid !== undefined ? procCpuSeconds(options.cpuPid) : undefined;
  clearTimeout(startSampling);
  const peakRssKb = sampler?.stop();
  const seconds = Math.max(0.001, (end - boundary) / 1000);
  const total = Object.values(allStatuses).reduce((sum, n) => sum + n, 0);
  return {
    responses: recorder.count,
    seconds,
    requestsPerSecond: recorder.count / seconds,
    ...recorder.percentiles(),
    statusCounts: allStatuses,
    // warm-up answers count here too: an error is an error whenever it happens
    unexpected: total - (allStatuses[String(options.expectedStatus)] ?? 0),
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: recorder.count > 0 ? recorder.bytes / recorder.count : 0,
    megabytesPerSecond: recorder.bytes / seconds / 1e6,
    peakRssKb,
    cpuMicrosPerAnswer:
      cpuAtBoundary !== undefined && cpuAtEnd !== undefined && recorder.count > 0 ? ((cpuAtEnd - cpuAtBoundary) * 1e6) / recorder.count : undefined,
  };
}
export interface ProbeResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

/** One request outside the load, to check what a scenario really answers before measuring it. */
export async function probe(origin: string, spec: RequestSpec): Promise<ProbeResult> {
  const response = await fetch(origin + spec.path, {
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
