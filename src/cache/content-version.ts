/**
 * Tracks content_state.content_version, the number every import bumps when it changes anything.
 * Each running instance polls it (a one-row primary-key read) so that its response cache is
 * dropped within one poll interval of an import, whichever process or machine ran the import.
 * Polling works the same on PGlite and PostgreSQL and survives database restarts, which
 * LISTEN/NOTIFY on a dedicated connection would not without reconnect logic.
 */

export class ContentVersion {
  private value: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<(version: string) => void> = [];

  /** `read` returns the stored version (src/queries/content-state.ts); it may reject while the database is away. */
  constructor(
    private readonly read: () => Promise<string | undefined>,
    private readonly intervalMs: number,
  ) {}

  /** The last version read; undefined until the first successful read. */
  get current(): string | undefined {
    return this.value;
  }

  onChange(listener: (version: string) => void): void {
    this.listeners.push(listener);
  }

  /** Reads the version now; a failed read keeps the previous value (the database may be down). */
  async refresh(): Promise<string | undefined> {
    try {
      const next = await this.read();
      if (next !== undefined && next !== this.value) {
        const first = this.value === undefined;
        this.value = next;
        if (!first) for (const listener of this.listeners) listener(next);
      }
    } catch {
      // Unreachable database: keep serving what we know; /health reports the outage.
    }
    return this.value;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
