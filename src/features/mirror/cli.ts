/**
 * mirror --from URL --key KEY [--website-id ID] [--prune]: everything the key sees on a running
 * service of the original interface, imported all or nothing (src/features/mirror). The report, progress
 * and --json output are import's, plus a "mirror" member; the key is never printed.
 */
import { mirrorSource, type ReadProgress, type RetryNotice } from './index.js';
import { withDatabase, type CliIo, type Output } from '../../cli/context.js';
import { importReportJson, importReportText, json, reportRejectedImport } from '../../cli/output.js';
import { createProgress } from '../../cli/progress.js';
import { plural } from '../../text/plural.js';

export interface MirrorCommandOptions {
  from: string;
  key: string;
  websiteId?: string;
  prune?: boolean;
  json?: boolean;
  attempts?: number;
  pageSize?: number;
  timeout?: number;
  /** Hidden, for tests: first backoff step and the Retry-After cap, in ms. */
  retryDelayMs?: number;
  retryAfterCapMs?: number;
}

/** A line every this many offer pages (and on the last). */
const PAGE_LINE_EVERY = 20;

function readProgress(stderr: Output, source: string): { read(p: ReadProgress): void; retry(n: RetryNotice): void } {
  return {
    read(p) {
      if (p.phase === 'entities') {
        stderr.write(
          `reading ${source}: organization "${p.organization}", ${plural(p.branches, 'branch', 'branches')}, ${plural(p.agents, 'agent')}, ` +
            `${plural(p.investments, 'investment')}\n`,
        );
      } else if (p.page % PAGE_LINE_EVERY === 0 || p.page >= p.pages) {
        stderr.write(`read offers page ${p.page.toLocaleString('en-US')} of ${p.pages.toLocaleString('en-US')} (${p.offers.toLocaleString('en-US')} of ${plural(p.total, 'offer')})\n`);
      }
    },
    retry(n) {
      stderr.write(`${n.method} ${n.url}: ${n.reason}; trying again in ${(n.delayMs / 1000).toFixed(1)} s (${n.attempt + 1} of ${n.attempts})\n`);
    },
  };
}

export async function mirrorCommand(io: CliIo, options: MirrorCommandOptions): Promise<void> {
  await withDatabase(io, async (handle) => {
    const quiet = Boolean(options.json);
    const shown = readProgress(io.stderr, options.from);
    const progress = createProgress(io.stderr, { quiet });
    const started = Date.now();
    try {
      const result = await mirrorSource(handle.db, {
        from: options.from,
        key: options.key,
        websiteId: options.websiteId,
        prune: Boolean(options.prune),
        pageSize: options.pageSize,
        attempts: options.attempts,
        timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
        ...(options.retryDelayMs === undefined ? {} : { baseDelayMs: options.retryDelayMs, maxDelayMs: options.retryDelayMs * 64 }),
        retryAfterCapMs: options.retryAfterCapMs,
        onRead: quiet ? undefined : (p) => shown.read(p),
        onRetry: quiet ? undefined : (n) => shown.retry(n),
        onImport: (p) => progress.update(p),
      });
      progress.stop();
      const summary = {
        source: result.source,
        website_id: result.websiteId,
        key_id: result.keyId ?? null,
        offers_read: result.offers,
        pages: result.pages,
        requests: result.requests,
        retries: result.retries,
        warnings: result.warnings,
      };
      if (options.json) {
        io.stdout.write(json({ ...importReportJson(result.report), mirror: summary }));
        return;
      }
      for (const warning of result.warnings) io.stderr.write(`warning: ${warning}\n`);
      io.stdout.write(
        importReportText(result.source, result.report, (Date.now() - started) / 1000, Boolean(options.prune)) +
          `Website ${result.websiteId} answers the same key${result.keyId ? ` (key ${result.keyId})` : ''}: ` +
          `${plural(result.requests, 'request')}, ${result.retries.toLocaleString('en-US')} retried.\n`,
      );
    } catch (error) {
      progress.stop();
      reportRejectedImport(io, error, Boolean(options.json));
      throw error;
    }
  });
}
