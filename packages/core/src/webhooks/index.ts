/**
 * The webhooks room: signed, durable, retried delivery of gateway events to session webhooks.
 * No other room imports it; the composition root subscribes {@link WebhookService.enqueue} to the
 * gateway's events.
 * @module
 */
export {
  createWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_USER_AGENT,
  DEFAULT_WEBHOOK_TOLERANCE_SEC,
} from './signing.js'
export type {
  WebhookSignatureHeaders,
  WebhookMessage,
  WebhookHeadersInput,
  VerifyWebhookOptions,
  WebhookVerification,
} from './signing.js'
export { isWebhookUrl, assertWebhookUrl, webhookUrlSchema, webhookUrlReason } from './url.js'
export { retryDelayMs, retryCeilingMs } from './backoff.js'
export type { RetryScheduleOptions } from './backoff.js'
export { postWebhook } from './post.js'
export type { WebhookTarget, WebhookFetch, WebhookResponse, AttemptOutcome, PostWebhookInput } from './post.js'
export { DELIVERIES_COLLECTION, DEAD_LETTERS_COLLECTION, deliveryKey } from './delivery.js'
export type { WebhookDelivery, WebhookDeadLetter } from './delivery.js'
export { WebhookService } from './webhook-service.js'
export { WEBHOOK_DEFAULTS } from './webhook-options.js'
export type { WebhookServiceOptions, WebhookStats } from './webhook-options.js'
