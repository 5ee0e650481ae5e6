/**
 * The loop shared by the background workers (the webhook sender, the photo fetcher): in every
 * running instance it claims due jobs from a table (the claim's SQL gives each a lease, so
 * instances never run the same job twice), runs at most `concurrency` at once, and looks again
 * when a job finishes, when woken, or every `pollMs`. What a job is, how it is claimed and what a
 * failure is called belong to the caller; the worker only schedules.
 *
 * - A claim that fails is told to the caller and tried again at the next poll: the worker never
 *   throws and never blocks requests or imports.
 * - When a claim filled every free slot, more may be due: it looks again at once.
 * - stop() waits for the claim under way, then aborts the running jobs and waits for them: each
 *   job sees its signal aborted (or `stopped` true) and hands its claim back.
 */

export interface ClaimWorkerOptions<Claim> {
  /** Jobs under way at most. */
  concurrency: number;
  /** How often to look for due jobs when nothing wakes the worker. */
  pollMs: number;
  /** Claims up to `limit` due jobs for this instance. */
  claim(limit: number): Promise<readonly Claim[]>;
  /** The job's identity among those under way. */
  idOf(claim: Claim): string;
  /** Runs one claimed job; `stop` is aborted when the worker stops. */
  run(claim: Claim, stop: AbortSignal): Promise<void>;
  /** Told when looking for due jobs failed (the worker tries again later). */
  onClaimFailed(error: unknown): void;
  /** Told when a job's run threw (its lease ends and it is claimed again). */
  onRunFailed(error: unknown, claim: Claim): void;
  /** Told when a job has ended, whatever its outcome, before the worker looks for more. */
  onEnded?(claim: Claim): void;
}

export class ClaimWorker<Claim> {
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private isStopped = true;
  /** The claim under way, if any (stop() waits for it). */
  private ticking: Promise<void> | undefined;
  private tickAgain = false;

  constructor(private readonly options: ClaimWorkerOptions<Claim>) {}

  /** Not started, or stopped: a job that sees this hands its claim back. */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** Jobs under way. */
  get running(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (!this.isStopped) return;
    this.isStopped = false;
    this.schedule(0);
  }

  /** Looks for due jobs now. */
  wake(): void {
    if (!this.isStopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    for (const job of this.inFlight.values()) job.controller.abort();
    await Promise.allSettled([...this.inFlight.values()].map((job) => job.done));
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.isStopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    let full = false;
    this.ticking = (async () => {
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      try {
        const claims = await this.options.claim(free);
        full = claims.length === free;
        for (const claim of claims) this.launch(claim);
      } catch (error) {
        this.options.onClaimFailed(error);
      }
    })();
    await this.ticking;
    this.ticking = undefined;
    if (this.isStopped) return;
    // More may be due than were claimed; otherwise wait for the poll (or a finished job).
    const again = this.tickAgain || (full && this.inFlight.size < this.options.concurrency);
    this.tickAgain = false;
    this.schedule(again ? 0 : this.options.pollMs);
  }

  private launch(claim: Claim): void {
    const id = this.options.idOf(claim);
    const controller = new AbortController();
    const done = this.options
      .run(claim, controller.signal)
      .catch((error: unknown) => this.options.onRunFailed(error, claim))
      .finally(() => {
        this.inFlight.delete(id);
        this.options.onEnded?.(claim);
        // A slot is free, and the next job may be due.
        this.wake();
      });
    this.inFlight.set(id, { controller, done });
  }
}
