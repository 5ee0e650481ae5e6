/**
 * A counting semaphore: at most `limit` image operations (renders, inspections) run at once in
 * this process, the others wait their turn in order. libvips holds a bounded amount of memory per
 * operation, so this bounds the memory of image work whatever the load.
 */
export class RenderGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Operations running now. */
  get active(): number {
    return this.running;
  }

  /** Runs `work` when a place is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The place passes to the next waiter directly (running stays counted for it).
      if (next) next();
      else this.running -= 1;
    }
  }
}
