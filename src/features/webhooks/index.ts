/**
 * The webhooks wing (extension E6): endpoints (write.ts, cli.ts), the outbox the import writes in
 * its transaction (outbox.ts), and the sender of a running instance (sender.ts, its SQL in
 * sender-sql.ts), signing as Standard Webhooks do (model.ts).
 */
export { enqueueContentChanged } from './outbox.js';
export { WebhookSender } from './sender.js';
