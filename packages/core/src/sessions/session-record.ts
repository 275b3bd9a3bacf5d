/**
 * What the gateway keeps about a session. Stored in the `sessions` collection; the live copy is
 * held in memory by the session service (every request reads it).
 * @module
 */
import type { Me } from '../network/types.js'

/** The spec's session states. */
export type SessionState =
  | 'creating'
  | 'starting'
  | 'qr_ready'
  | 'connecting'
  | 'ready'
  | 'disconnected'
  | 'failed'
  | 'stopped'
  | 'logged_out'

export const SESSION_STATES: readonly SessionState[] = [
  'creating',
  'starting',
  'qr_ready',
  'connecting',
  'ready',
  'disconnected',
  'failed',
  'stopped',
  'logged_out',
]

export interface SessionRecord {
  id: string
  name: string
  /** The managed key (or `master`) that created the session: its limits and ownership apply. */
  accountKeyId: string
  state: SessionState
  /** Whether the session should run: restored at start-up unless stopped, logged out or failed. */
  desired: 'running' | 'stopped'
  /** Digits of the linked number, once linked. */
  phoneNumber?: string
  me?: Me
  createdAtMs: number
  lastActivityAtMs: number
  webhookUrl: string | null
  /** Standard Webhooks secret (`whsec_…`); needed in clear to sign, never shown after creation. */
  webhookSecret: string
  metadata?: Record<string, unknown>
  lastError?: string
  messagesSent: number
  messagesReceived: number
}

/** Public view for status responses. */
export function statusView(s: SessionRecord, iso: (ms: number) => string) {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    phoneNumber: s.phoneNumber ?? null,
    createdAt: iso(s.createdAtMs),
    lastActivity: iso(s.lastActivityAtMs),
    webhookUrl: s.webhookUrl,
    ...(s.metadata === undefined ? {} : { metadata: s.metadata }),
  }
}

/** Public view for list responses. */
export function listView(s: SessionRecord, iso: (ms: number) => string) {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    phoneNumber: s.phoneNumber ?? null,
    createdAt: iso(s.createdAtMs),
  }
}
