/**
 * Tracks content_state.content_version, the number every import bumps when it changes anything.
 * Each running instance polls it (a one-row primary-key read) so that its response cache is
 * dropped within one poll interval of an import, whichever process or machine ran the import.
 * On PostgreSQL every instance is also told at once (LISTEN/NOTIFY, src/features/content-version/notifications.ts)
 * and applies the version it is told synchronously (observe()), so the request after an import
 * already sees it; the poll stays as the fallback while that connection is down.
 */

export class ContentVersion {
  private value: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** How many versions notifications have brought (see refresh()). */
  private observed = 0;
  private readonly listeners: Array<(version: string) => void> = [];

  /** `read` returns the stored version (src/features/content-version/read.ts); it may reject while the database is away. */
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
    const observedBefore = this.observed;
    try {
      const next = await this.read();
      // A read that started before a notification may return the version before it: keep the newer.
      const overtaken = this.observed !== observedBefore && next !== undefined && this.value !== undefined && BigInt(next) < BigInt(this.value);
      if (next !== undefined && next !== this.value && !overtaken) this.apply(next);
    } catch {
      // Unreachable database: keep serving what we know; /health reports the outage.
    }
    return this.value;
  }

  private apply(version: string): void {
    const first = this.value === undefined;
    this.value = version;
    if (!first) for (const listener of this.listeners) listener(version);
  }

  /**
   * A version learnt from a notification: applied at once when it is newer, so that no request
   * can slip in between the notification and a read of the stored version.
   */
  observe(version: string): void {
    if (!/^\d+$/.test(version)) return;
    if (this.value !== undefined && BigInt(version) <= BigInt(this.value)) return;
    this.observed += 1;
    this.apply(version);
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
