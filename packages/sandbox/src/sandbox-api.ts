/**
 * The public shape of the sandbox: its options, the in-process controls and the account views
 * they answer.
 * @module
 */
import type {
  ChatInfo,
  ChatOp,
  ChatOpResults,
  Clock,
  ContactOp,
  ContactOpResults,
  GroupInfo,
  GroupOp,
  GroupOpResults,
  Logger,
  MessageOp,
  MessageOpResults,
  NetworkDriver,
  NewId,
  OpOf,
  OutboundContent,
  ProfileOp,
  ProfileOpResults,
  Store,
} from '@switchboard/core'
import type { FaultOp, FaultOptions } from './faults.js'
import type { AccountChanges, NewAccount } from './world/accounts.js'
import type { PresenceRecord } from './world/chats.js'
import type { InboxMessage } from './world/views.js'

export interface SandboxOptions {
  /** Where the world lives (accounts, links, groups, messages survive a restart with it). */
  store: Store
  /** @default systemClock */
  clock?: Clock
  /** @default randomId */
  newId?: NewId
  /** @default silentLogger */
  logger?: Logger
  /** Time in `starting` before a new session's QR (`SWITCHBOARD_SANDBOX_QR_DELAY_MS`). @default 1000 */
  qrDelayMs?: number
  /** Time in `connecting` after a scan, a restore or a drop (`SWITCHBOARD_SANDBOX_CONNECT_DELAY_MS`). @default 200 */
  connectDelayMs?: number
  /** A new QR payload replaces the previous one this often. @default 60000 */
  qrRotateMs?: number
  /** How long a QR payload can be scanned. @default 60000 */
  qrTtlMs?: number
  /** How long a pairing code can be entered. @default 60000 */
  codeTtlMs?: number
  /** How long an unanswered call rings. @default 45000 */
  ringMs?: number
}

/** An account as the controls show it. */
export interface SandboxAccount {
  phoneNumber: string
  jid: string
  lid: string
  name: string
  about: string | null
  /** Sessions linked to the account, oldest link first. */
  sessions: string[]
}

export interface SendAsInput {
  /** A phone number (any accepted form) or a user or group JID. */
  to: string
  /** A text message (the control API's only kind). */
  text?: string
  /** Any other content (media, contact, location, poll); wins over `text`. */
  content?: OutboundContent
  /** Replies to this message (one the account can see in that chat). */
  quotedMessageId?: string
}

export interface SandboxLink {
  sessionId: string
  phoneNumber: string
  deviceId: number
  method: 'qr' | 'code'
  linkedAtMs: number
  /** Connected through a door right now. */
  online: boolean
}

/** The driver port's operations, done from an account's phone instead of a linked session. */
export interface AccountActions {
  message<K extends MessageOp['op']>(op: OpOf<MessageOp, K>): Promise<MessageOpResults[K]>
  chat<K extends ChatOp['op']>(op: OpOf<ChatOp, K>): Promise<ChatOpResults[K]>
  group<K extends GroupOp['op']>(op: OpOf<GroupOp, K>): Promise<GroupOpResults[K]>
  profile<K extends ProfileOp['op']>(op: OpOf<ProfileOp, K>): Promise<ProfileOpResults[K]>
  contact<K extends ContactOp['op']>(op: OpOf<ContactOp, K>): Promise<ContactOpResults[K]>
  /** Joins a group through its invite code. */
  joinGroup(code: string): Promise<GroupInfo>
}

export interface Sandbox {
  /** Loads the world from the store; call once before anything else. */
  load(): Promise<void>
  /** The in-process door (the same instance on every call). */
  driver(): NetworkDriver
  readonly accounts: {
    /** `Invalid phone number format`, `Account already exists`. */
    create(input: NewAccount): Promise<SandboxAccount>
    /** Oldest first. */
    list(): Promise<SandboxAccount[]>
    get(phone: string): Promise<SandboxAccount>
    /** Changes what the account shows (name, about, picture, hidden). */
    update(phone: string, changes: AccountChanges): Promise<SandboxAccount>
  }
  /** The account scans a session's QR payload: `Invalid or expired QR code`. */
  scan(phone: string, qr: string): Promise<{ sessionId: string }>
  /** The account enters a pairing code: `Invalid or expired pairing code`. */
  enterCode(phone: string, code: string): Promise<{ sessionId: string }>
  sendAs(phone: string, input: SendAsInput): Promise<{ messageId: string }>
  /** Every message the account received, oldest first. */
  inbox(phone: string): Promise<InboxMessage[]>
  /** The account reads messages it received in `chatId`; their senders get `read`. */
  read(phone: string, chatId: string, messageIds: readonly string[]): Promise<void>
  /** The account reacts (an empty emoji removes its reaction). */
  react(phone: string, input: { chatId: string; messageId: string; emoji: string }): Promise<void>
  /** The account removes a linked session from its phone: the session goes `logged_out`. */
  unlink(phone: string, sessionId: string): Promise<void>
  /** The network drops a session's connection: `disconnected`, then `open` again. */
  drop(sessionId: string): Promise<void>
  /** The port's operations done from the account's phone (groups, blocks, edits, …). */
  as(phone: string): AccountActions
  /** The account calls someone; the callee's sessions get `offer`, then `timeout` after `ringMs`. */
  call(phone: string, input: { to: string; isVideo?: boolean }): Promise<{ callId: string }>
  /** Typing indicators the account sees now. */
  presence(phone: string): Promise<PresenceRecord[]>
  /** The account's chat list, most recent first. */
  chats(phone: string): Promise<ChatInfo[]>
  /** Groups the account is in. */
  groups(phone: string): Promise<GroupInfo[]>
  /** Linked sessions, of every account or one. */
  links(phone?: string): Promise<SandboxLink[]>
  /** Test-only: the next matching driver call throws `error` (default: network unavailable). */
  failNext(op: FaultOp, error?: Error, options?: FaultOptions): void
  clearFaults(): void
  /** Closes every session (no logout), stops timers and waits for pending writes. */
  close(): Promise<void>
}
