/**
 * What to do when a socket closes, decided from the Baileys disconnect code alone (pure, so it is
 * tested without sockets). See baileys-notes §5.
 * @module
 */
import type { CloseReason } from '../driver.js'

export interface ReconnectSettings {
  /** First backoff delay. @default 1000 */
  baseMs: number
  /** Cap on one backoff delay. @default 60000 */
  maxMs: number
  /** Consecutive failed attempts before the session ends `failed`. @default 10 */
  maxAttempts: number
  /** New QR rounds after the QR refs ran out before the session ends `failed` (`qr_expired`). @default 2 */
  maxQrRounds: number
  /** A connection open at least this long resets the attempt count when it drops. @default 60000 */
  stableMs: number
}

export const DEFAULT_RECONNECT: ReconnectSettings = {
  baseMs: 1_000,
  maxMs: 60_000,
  maxAttempts: 10,
  maxQrRounds: 2,
  stableMs: 60_000,
}

export interface CloseFacts {
  /** `lastDisconnect.error.output.statusCode`, if any. */
  statusCode: number | undefined
  errorMessage: string
  /** `close()` asked for it. */
  intentional: boolean
  /** The creds belong to a linked device. */
  linked: boolean
  /** Failed attempts so far (before this close). */
  attempts: number
  /** QR rounds restarted so far. */
  qrRounds: number
}

export type CloseDecision =
  | { kind: 'closed' }
  /** Reconnect at once with the same in-memory creds (515, or a fresh QR round). */
  | { kind: 'restart'; reason: CloseReason; quiet: boolean }
  | { kind: 'backoff'; reason: CloseReason; delayMs: number }
  | { kind: 'logged_out'; reason: CloseReason }
  | { kind: 'failed'; reason: CloseReason }

/** Baileys' `DisconnectReason` values plus the unnamed failure reasons whatsmeow lists. */
export const CODES = {
  loggedOut: 401,
  tempBanned: 402,
  forbidden: 403,
  clientOutdated: 405,
  unknownLogout: 406,
  timedOut: 408,
  multideviceMismatch: 411,
  connectionClosed: 428,
  connectionReplaced: 440,
  badSession: 500,
  unavailableService: 503,
  restartRequired: 515,
} as const

const QR_ENDED = 'QR refs attempts ended'

export function reasonOf(statusCode: number | undefined): CloseReason {
  switch (statusCode) {
    case CODES.timedOut:
    case CODES.connectionClosed:
      return 'connection_lost'
    case CODES.restartRequired:
      return 'restart_required'
    case CODES.connectionReplaced:
      return 'replaced'
    case CODES.loggedOut:
    case CODES.forbidden:
      return 'logged_out'
    case CODES.tempBanned:
    case CODES.unknownLogout:
      return 'banned'
    case CODES.badSession:
    case CODES.multideviceMismatch:
      return 'bad_session'
    case CODES.unavailableService:
      return 'unavailable'
    default:
      return 'unknown'
  }
}

/** Capped exponential backoff with "equal jitter": half fixed, half random. */
export function backoffDelay(attempt: number, settings: ReconnectSettings, random: () => number): number {
  const exp = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(exp / 2 + (exp / 2) * random())
}

export function decideOnClose(facts: CloseFacts, settings: ReconnectSettings, random: () => number): CloseDecision {
  if (facts.intentional) return { kind: 'closed' }
  const code = facts.statusCode
  const reason = reasonOf(code)
  switch (code) {
    case CODES.loggedOut:
    case CODES.forbidden:
    case CODES.unknownLogout:
      return { kind: 'logged_out', reason }
    case CODES.connectionReplaced:
    case CODES.tempBanned:
    case CODES.multideviceMismatch:
    case CODES.clientOutdated:
      return { kind: 'failed', reason }
  }
  const attempt = facts.attempts + 1
  if (attempt > settings.maxAttempts) return { kind: 'failed', reason }
  if (code === CODES.restartRequired) return { kind: 'restart', reason, quiet: true }
  if (code === CODES.timedOut && !facts.linked && facts.errorMessage.includes(QR_ENDED)) {
    return facts.qrRounds < settings.maxQrRounds
      ? { kind: 'restart', reason: 'qr_expired', quiet: true }
      : { kind: 'failed', reason: 'qr_expired' }
  }
  return { kind: 'backoff', reason, delayMs: backoffDelay(attempt, settings, random) }
}
