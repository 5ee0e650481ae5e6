/**
 * Metrics under node:cluster (WEB_CONCURRENCY > 1). Each worker counts in its own registry; the
 * primary sums them with prom-client's AggregatorRegistry, which asks every worker over the
 * cluster's IPC channel. The primary serves METRICS_PORT itself (a worker listening there would
 * share the port and answer for itself only). GET /metrics on the main listener reaches one
 * worker, which asks the primary for the sum, so both places answer for the whole cluster.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

const ASK = 'estate:metrics-ask';
const ANSWER = 'estate:metrics-answer';
/** A worker gives up on the primary after this long (AggregatorRegistry's own limit is 5 s). */
const ASK_TIMEOUT_MS = 10_000;

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: the sum of every worker's metrics, also handed to workers that ask for it. */
export function aggregateWorkers(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  const read = () => aggregator.clusterMetrics();
  cluster.on('message', (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== 'number') return;
    const id = message.id;
    read().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id, text } satisfies Answer),
      (error: unknown) => worker.isConnected() && worker.send({ type: ANSWER, id, error: String(error) } satisfies Answer),
    );
  });
  return read;
}

/** In a worker: asks the primary for the cluster's sum. */
export function askPrimary(): () => Promise<string> {
  let next = 0;
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on('message', (message: Partial<Answer>) => {
    if (message?.type !== ANSWER || typeof message.id !== 'number') return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.text !== undefined) waiter?.resolve(message.text);
    else waiter?.reject(new Error(message.error ?? 'no metrics from the primary'));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the primary did not answer for metrics in time'));
      }, ASK_TIMEOUT_MS);
      pending.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send?.({ type: ASK, id } satisfies Ask);
    });
}
