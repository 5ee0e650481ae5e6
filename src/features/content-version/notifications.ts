/**
 * PostgreSQL LISTEN/NOTIFY for "stored content changed" (extension E8: fresh after import). The
 * import notifies in its own transaction (PostgreSQL delivers a notification only when that
 * transaction commits, before the importing command has even been told it committed), and every
 * running instance listens on one dedicated connection, so the next request after an import sees
 * the new content. The payload is the new content version (or '' when only API keys changed).
 *
 * The connection is re-opened with backoff when it drops; meanwhile the instances' periodic
 * version check (CONTENT_POLL_MS) keeps caches correct within its interval, as before.
 */
import pg from 'pg';

export const CHANGES_CHANNEL = 'ecs_changes';

export interface ChangeListener {
  stop(): Promise<void>;
}

export interface ChangeListenerOptions {
  url: string;
  onChange(payload: string): void;
  /** Called once per connection loss or failed attempt (logged by the caller). */
  onError?(error: Error): void;
  /** Called after every (re)connection: changes may have been missed while it was down. */
  onConnect?(): void;
}

const MAX_BACKOFF_MS = 30_000;

export function listenForChanges(options: ChangeListenerOptions): ChangeListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 500;

  const scheduleReconnect = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: options.url, application_name: 'estate-content-listener' });
    next.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL) options.onChange(message.payload ?? '');
    });
    next.on('error', (error) => {
      options.onError?.(error);
      if (client === next) client = undefined;
      void next.end().catch(() => {});
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (stopped) {
        await next.end();
        return;
      }
      client = next;
      backoffMs = 500;
      options.onConnect?.();
    } catch (error) {
      options.onError?.(error as Error);
      await next.end().catch(() => {});
      scheduleReconnect();
    }
  };

  const started = connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await started;
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
