/** The webhooks wing's public surface: what other wings and the shared plumbing may use. */
export { enqueueContentChanged } from './outbox.js';
export { WebhookSender } from './sender.js';
