/**
 * The session state machine as a pure function: a driver's connection update in, the next state
 * and the webhook events it causes out. The service applies the result; tests check every edge.
 * @module
 */
import type { ConnectionUpdate } from '../network/driver.js'
import type { Me } from '../network/types.js'
import type { SessionState } from './session-record.js'

export type SessionSignal =
  | { event: 'qr_ready' }
  | { event: 'authenticated'; phoneNumber: string }
  | { event: 'ready'; phoneNumber: string }
  | { event: 'disconnected'; error: string; willReconnect: boolean }
  | { event: 'logged_out' }

export interface Transition {
  state: SessionState
  /** Set when the update tells who the account is. */
  me?: Me
  /** The link is gone: forget the number. */
  unlinked?: true
  qr?: string
  error?: string
  signals: SessionSignal[]
}

/** States in which a driver's updates are still wanted (a stopped or deleted session ignores late ones). */
const LIVE: ReadonlySet<SessionState> = new Set(['creating', 'starting', 'qr_ready', 'connecting', 'ready', 'disconnected'])

/**
 * The next state for `update`, or undefined when the update must be ignored (late news for a
 * session that was stopped, logged out or failed on purpose).
 */
export function transition(current: SessionState, update: ConnectionUpdate): Transition | undefined {
  if (!LIVE.has(current) && update.state !== 'starting') return undefined
  switch (update.state) {
    case 'starting':
      return { state: 'starting', signals: [] }
    case 'qr':
      return { state: 'qr_ready', qr: update.qr, signals: [{ event: 'qr_ready' }] }
    case 'connecting':
      return { state: 'connecting', signals: [] }
    case 'authenticated':
      return {
        state: 'connecting',
        me: update.me,
        signals: [{ event: 'authenticated', phoneNumber: update.me.phoneNumber }],
      }
    case 'open':
      return { state: 'ready', me: update.me, signals: [{ event: 'ready', phoneNumber: update.me.phoneNumber }] }
    case 'disconnected':
      return {
        state: update.willReconnect ? 'disconnected' : 'failed',
        error: update.error,
        signals: [{ event: 'disconnected', error: update.error, willReconnect: update.willReconnect }],
      }
    case 'logged_out':
      return { state: 'logged_out', unlinked: true, error: update.error, signals: [{ event: 'logged_out' }] }
    case 'failed':
      return {
        state: 'failed',
        error: update.error,
        signals: [{ event: 'disconnected', error: update.error, willReconnect: false }],
      }
    case 'closed':
      // A close we asked for: the service has already set stopped / logged_out.
      return undefined
  }
}

/** Linked and on the way back: sends get "still connecting" rather than "scan the QR code". */
export function isReconnecting(state: SessionState, linked: boolean): boolean {
  return state === 'connecting' || state === 'disconnected' || (state === 'starting' && linked)
}
