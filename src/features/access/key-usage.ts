/**
 * Records API key use (api_keys.last_used_at) at most once a minute per key and instance, in the
 * background: a failure is logged and never fails the request.
 */
import type { FastifyBaseLogger } from 'fastify';

export class KeyUsageRecorder {
  private readonly lastTouched = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly touch: (keyId: string) => Promise<void>,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 60_000,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  record(keyId: string): void {
    const now = this.now();
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now - last < this.intervalMs) return;
    this.lastTouched.delete(keyId);
    if (this.lastTouched.size >= this.maxKeys) this.lastTouched.delete(this.lastTouched.keys().next().value as string);
    this.lastTouched.set(keyId, now);
    const done: Promise<void> = this.touch(keyId)
      .catch((error: unknown) => this.log.warn({ err: error, keyId }, 'could not record API key use'))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Waits for the writes in flight (on shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
