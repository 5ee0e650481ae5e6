/**
 * The webhook sender: a loop in every running instance (src/jobs/claim-worker.ts) that claims due
 * deliveries from the outbox (src/features/webhooks/sender-sql.ts), POSTs each, signed, to its
 * endpoint, and records the outcome. It never blocks requests or imports: it holds no transaction while a message is on the
 * wire, has at most `concurrency` requests under way, and logs its errors instead of throwing.
 *
 * - 2xx: delivered. Anything else (3xx included: redirects are not followed; 4xx; 5xx), no answer
 *   within the timeout, or a refused or broken connection: the attempt failed, and the delivery is
 *   tried again after an exponentially growing wait, until the give-up period has passed.
 * - An endpoint gets its messages in order: the next one waits until the one before is delivered
 *   or has failed for good (the claim's SQL sees to that, across instances too).
 * - stop(): aborts what is under way and hands those deliveries back (due again at once), so a
 *   restarting service resends them; after a crash their lease expires and the same happens.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { retryDelayMs, signatureHeaders, type RetrySchedule } from './model.js';
import {
  claimDueDeliveries,
  markAttemptFailed,
  markDelivered,
  releaseClaim,
  type ClaimedDelivery,
} from './sender-sql.js';
import { ClaimWorker } from '../../jobs/claim-worker.js';

/** The part of a pino / Fastify logger the sender uses. */
export interface SenderLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface WebhookSenderOptions {
  db: Kysely<Database>;
  log: SenderLog;
  /** How often to look for due deliveries when nothing wakes the sender. */
  pollMs: number;
  /** How long one request may take. */
  timeoutMs: number;
  /** Requests under way at most. */
  concurrency: number;
  schedule: RetrySchedule;
  /** Told the result of every attempt (metrics). */
  onAttempt?: (result: 'delivered' | 'retry' | 'failed') => void;
}

/** A claimed delivery is this instance's for the request's timeout plus this margin; then anyone may send it again. */
export const LEASE_MARGIN_MS = 5000;

export const USER_AGENT = 'EstateContentService-Webhooks/1';

/** What went wrong with a request that got no answer, in a few words. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return `${cause.code}${typeof cause.message === 'string' && cause.message ? `: ${cause.message}` : ''}`;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export class WebhookSender {
  private readonly worker: ClaimWorker<ClaimedDelivery>;

  constructor(private readonly options: WebhookSenderOptions) {
    const { db, log } = options;
    const leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
    this.worker = new ClaimWorker<ClaimedDelivery>({
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      claim: (limit) => claimDueDeliveries(db, limit, leaseMs),
      idOf: (claim) => claim.delivery_id,
      run: (claim, stop) => this.deliver(claim, stop),
      onClaimFailed: (error) => log.warn({ err: error }, 'webhooks: could not look for due deliveries; trying again later'),
      onRunFailed: (error, claim) =>
        log.error({ err: error, delivery: claim.delivery_id }, 'webhooks: could not record a delivery attempt; it is sent again when its lease ends'),
    });
  }

  start(): void {
    this.worker.start();
  }

  /** Looks for due deliveries now (after an import or a `webhooks test` in this process). */
  wake(): void {
    this.worker.wake();
  }

  /** Attempts this instance has made since it started. */
  attempted = 0;

  /** Requests under way. */
  get sending(): number {
    return this.worker.running;
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  private async deliver(claim: ClaimedDelivery, stopSignal: AbortSignal): Promise<void> {
    const { db, log, timeoutMs, schedule } = this.options;
    if (this.worker.stopped) {
      await releaseClaim(db, claim, 'interrupted: the service stopped before sending');
      return;
    }
    this.attempted += 1;
    const timestamp = Math.floor(Date.now() / 1000);
    let httpStatus: number | null = null;
    let failure: string;
    try {
      const response = await fetch(claim.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          ...signatureHeaders(claim.secret, claim.delivery_id, timestamp, claim.payload),
        },
        body: claim.payload,
        redirect: 'manual',
        signal: AbortSignal.any([stopSignal, AbortSignal.timeout(timeoutMs)]),
      });
      httpStatus = response.status;
      // The answer's body is not read; cancelling it frees the connection.
      await response.body?.cancel().catch(() => {});
      if (httpStatus >= 200 && httpStatus < 300) {
        await markDelivered(db, claim, httpStatus);
        this.options.onAttempt?.('delivered');
        log.info({ delivery: claim.delivery_id, endpoint: claim.endpoint_id, attempts: claim.attempts, status: httpStatus }, 'webhook delivered');
        return;
      }
      failure = httpStatus >= 300 && httpStatus < 400 ? `HTTP ${httpStatus} (redirects are not followed)` : `HTTP ${httpStatus}`;
    } catch (error) {
      if (stopSignal.aborted) {
        await releaseClaim(db, claim, 'interrupted: the service stopped while sending');
        return;
      }
      failure = describeFailure(error, timeoutMs);
    }
    const retryInMs = retryDelayMs(schedule, claim.attempts);
    const status = await markAttemptFailed(db, claim, { httpStatus, error: failure, retryInMs, giveUpAfterMs: schedule.giveUpAfterMs });
    this.options.onAttempt?.(status === 'failed' ? 'failed' : 'retry');
    const details = { delivery: claim.delivery_id, endpoint: claim.endpoint_id, url: claim.url, attempts: claim.attempts, error: failure };
    if (status === 'failed') log.error(details, 'webhook delivery failed for good: its retry period has passed');
    else log.warn({ ...details, retryInMs }, 'webhook attempt failed; retrying later');
  }
}
