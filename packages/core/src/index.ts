/**
 * `@switchboard/core`: the embeddable WhatsApp gateway.
 * @module
 */
export * as kernel from './kernel/index.js'
export { systemClock, isoAt, unixSeconds, silentLogger, randomId, sequentialIds, TypedEmitter } from './kernel/index.js'
export type { Clock, TimerHandle, Logger, NewId } from './kernel/index.js'
export { ERRORS, GatewayError, isGatewayError, hasErrorCode } from './errors/index.js'
export type { ErrorCode, ErrorSpec } from './errors/index.js'
export {
  parsePhone,
  normalizePhone,
  normalizeRecipient,
  normalizeChatId,
  normalizeGroupId,
  normalizeUserJid,
  isGroupJid,
  isLidJid,
  isUserJid,
  phoneOfJid,
  userJid,
  inviteLink,
} from './addressing/index.js'
export type * from './network/index.js'
export type { Store, Collection, BatchWrite, StoreKind } from './store/store.js'
export { GATEWAY_EVENT_NAMES } from './schemas/events.js'
export type * from './schemas/events.js'

// The gateway
export { createGateway, Gateway } from './gateway.js'
export type { GatewayStats, GeneralLimitState } from './gateway.js'
export { DEFAULTS } from './options.js'
export type { GatewayOptions } from './options.js'
export { OPERATIONS } from './operations/index.js'
export type { OperationName, AccessRule, CallContext, OperationSpec, OperationTable, Principal } from './operations/index.js'
export { parseInput, issueText, queryBoolean } from './schemas/validate.js'

// Rooms, for embedders who compose their own
export { openStore, createAuthStore } from './store/index.js'
export type { OpenStoreOptions } from './store/index.js'
export { SessionService } from './sessions/session-service.js'
export type { SessionRecord, SessionState } from './sessions/session-record.js'
export { SESSION_STATES } from './sessions/session-record.js'
export { MessagingService } from './messaging/messaging-service.js'
export type { SendResult } from './messaging/messaging-service.js'
export type { MessageRecord } from './messaging/message-record.js'
export { ApiKeyService, assertAccess, assertTrialRecipient, canAccessSession } from './api-keys/index.js'
export type { ManagedApiKey, RateLimits } from './api-keys/index.js'
export { createMemoryRateLimiter } from './rate-limit/index.js'
export type { RateLimiter, RateLimitBucket } from './rate-limit/index.js'
export {
  WebhookService,
  createWebhookSecret,
  signWebhook,
  verifyWebhook,
  isWebhookUrl,
  assertWebhookUrl,
} from './webhooks/index.js'
export type { WebhookDelivery, WebhookDeadLetter, WebhookVerification } from './webhooks/index.js'
