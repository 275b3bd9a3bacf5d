/**
 * The network-driver port: how the gateway reaches a messaging network. Implemented by the
 * sandbox's in-process door, by the Baileys driver (`@switchboard/core/baileys`), and through the
 * sandbox's protocol door by the Baileys driver again. Every driver passes the same contract suite
 * (`@switchboard/core/testing`).
 *
 * Rules every driver keeps:
 * - Only our types cross this boundary; network-library errors are translated into
 *   {@link GatewayError}s (catalog codes) at the driver, never passed through raw.
 * - A driver owns its reconnect policy and reports it through `connection.update`.
 * - A driver never receives a user-supplied URL or file path: media arrives as bytes.
 * - Timers and time come from the injected clock.
 * @module
 */
import type {
  ChatOp,
  ChatOpResults,
  ContactOp,
  ContactOpResults,
  GroupOp,
  GroupOpResults,
  MessageOp,
  MessageOpResults,
  OpOf,
  ProfileOp,
  ProfileOpResults,
} from './operations.js'
import type {
  CallStatus,
  ChatInfo,
  ContactInfo,
  DeliveryStatus,
  InboundMessage,
  Jid,
  MediaPayload,
  Me,
  MessageRef,
  SendRequest,
  SentMessage,
} from './types.js'

/**
 * Persistent per-session state of a driver (credentials and keys), kept in the gateway's store.
 * Shaped after Baileys' `SignalKeyStore` so the Baileys driver maps onto it directly; simpler
 * drivers use only the creds.
 */
export interface AuthStore {
  readCreds(): Promise<unknown | undefined>
  /** Saves the whole creds object (callers serialize bursts). */
  writeCreds(creds: unknown): Promise<void>
  /** Returns only the ids found. */
  getKeys(type: string, ids: string[]): Promise<Record<string, unknown>>
  /** `null` deletes. Atomic across all entries where the backend allows it; throws on failure. */
  setKeys(data: Record<string, Record<string, unknown | null>>): Promise<void>
  /** Removes creds and every key of the session, together. */
  clear(): Promise<void>
}

export interface OpenOptions {
  auth: AuthStore
}

/** Why a connection closed, in our words. */
export type CloseReason =
  | 'connection_lost'
  | 'restart_required'
  | 'replaced'
  | 'logged_out'
  | 'banned'
  | 'bad_session'
  | 'unavailable'
  | 'qr_expired'
  | 'unknown'

/**
 * Connection progress of one session. Linking: `starting` → `qr` (repeatable) → `connecting` →
 * `authenticated` → `open`. Restoring a linked session: `starting` → `connecting` → `open`.
 */
export type ConnectionUpdate =
  /** Runtime starting; no QR yet. */
  | { state: 'starting' }
  /** A (new) QR payload is ready to scan; pairing codes can be requested from here on. */
  | { state: 'qr'; qr: string }
  /** Credentials accepted or a scan happened; logging in. */
  | { state: 'connecting' }
  /** A link by QR or pairing code succeeded. */
  | { state: 'authenticated'; me: Me }
  /** Ready to send and receive. */
  | { state: 'open'; me: Me }
  /** Lost; `willReconnect` says whether the driver is already reconnecting. */
  | { state: 'disconnected'; reason: CloseReason; error: string; willReconnect: boolean }
  /** The account unlinked this device; credentials are gone, a new link is needed. */
  | { state: 'logged_out'; reason: CloseReason; error: string }
  /** Gave up (too many failures, replaced by another client, banned). */
  | { state: 'failed'; reason: CloseReason; error: string }
  /** Closed on purpose through {@link NetworkDriver.close}. */
  | { state: 'closed' }

export interface DriverEvents {
  'connection.update': { sessionId: string } & ConnectionUpdate
  /** Received messages, live and offline, and our own messages sent from other devices. */
  'message.received': { sessionId: string; message: InboundMessage }
  'message.status': {
    sessionId: string
    messageId: string
    chatId: Jid
    status: DeliveryStatus
    timestampSec: number
    /** Group receipts name the member who read or received it. */
    participant?: Jid
  }
  'message.reaction': {
    sessionId: string
    messageId: string
    chatId: Jid
    from: Jid
    /** Empty when the reaction was removed. */
    reaction: string
    timestampSec: number
  }
  'message.revoked': { sessionId: string; messageId: string; chatId: Jid; fromMe: boolean; timestampSec: number }
  'message.edited': { sessionId: string; messageId: string; chatId: Jid; text: string; timestampSec: number }
  'group.participants': {
    sessionId: string
    groupId: Jid
    action: 'add' | 'remove' | 'promote' | 'demote'
    participants: Jid[]
    author?: Jid
    timestampSec: number
  }
  'group.update': {
    sessionId: string
    groupId: Jid
    updates: { subject?: string; desc?: string; announce?: boolean }
    author?: Jid
    timestampSec: number
  }
  call: {
    sessionId: string
    callId: string
    from: Jid
    status: CallStatus
    isVideo: boolean
    isGroup: boolean
    timestampSec: number
  }
  'contacts.upsert': { sessionId: string; contacts: ContactInfo[] }
  'chats.upsert': { sessionId: string; chats: ChatInfo[] }
  /** Learned pairs of LID and phone-number JIDs. */
  'identity.mapping': { sessionId: string; mappings: { lid: Jid; pn: Jid }[] }
}

export type DriverEventName = keyof DriverEvents

export interface NetworkDriver {
  /** Short name for logs and health (`sandbox`, `whatsapp`, …). */
  readonly name: string
  /**
   * Starts (or restores) the session's connection and resolves once the attempt is under way;
   * progress arrives as `connection.update`. Opening an open session is a no-op.
   */
  open(sessionId: string, options: OpenOptions): Promise<void>
  /**
   * Asks for an 8-character pairing code for `phoneDigits` (digits with country code). Valid once
   * the session has reached `qr`.
   */
  requestPairingCode(sessionId: string, phoneDigits: string): Promise<string>
  /**
   * Closes the connection on purpose (`closed`). With `logout`, unlinks the device first and the
   * driver clears the auth store. Closing a closed session is a no-op.
   */
  close(sessionId: string, options?: { logout?: boolean }): Promise<void>
  send(sessionId: string, request: SendRequest): Promise<SentMessage>
  message<K extends MessageOp['op']>(sessionId: string, op: OpOf<MessageOp, K>): Promise<MessageOpResults[K]>
  chat<K extends ChatOp['op']>(sessionId: string, op: OpOf<ChatOp, K>): Promise<ChatOpResults[K]>
  group<K extends GroupOp['op']>(sessionId: string, op: OpOf<GroupOp, K>): Promise<GroupOpResults[K]>
  profile<K extends ProfileOp['op']>(sessionId: string, op: OpOf<ProfileOp, K>): Promise<ProfileOpResults[K]>
  contact<K extends ContactOp['op']>(sessionId: string, op: OpOf<ContactOp, K>): Promise<ContactOpResults[K]>
  /** Downloads the media of a received message (the ref carries the recorded `raw`). */
  downloadMedia(sessionId: string, message: MessageRef): Promise<MediaPayload>
  /** Subscribes; returns the unsubscribe function. */
  on<E extends DriverEventName>(event: E, listener: (payload: DriverEvents[E]) => void): () => void
  /** Closes every connection without logging out (server shutdown). */
  shutdown(): Promise<void>
}
