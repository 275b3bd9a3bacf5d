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
