/**
 * What the driver contract suite needs from a harness: the driver under test and "the other side
 * of the network" (the account sessions link to, peers that send, read and react), plus optional
 * powers (scan, restart, drop, …) it may lack.
 * @module
 */
import type { AuthStore, NetworkDriver } from '../network/driver.js'
import type { Jid, Me } from '../network/types.js'
import type { TestClock } from './test-clock.js'

/** What a harness may be unable to do; tests needing it are skipped with the given reason. */
export type DriverCapability =
  | 'scan'
  | 'pairingCode'
  | 'restart'
  | 'drop'
  | 'unlinkFromPhone'
  | 'offlineDelivery'
  | 'readReceipts'
  | 'reactions'
  | 'edit'
  | 'revoke'
  | 'presence'
  | 'groups'
  | 'profile'
  | 'contacts'

/** A message as a peer's phone shows it. */
export interface PeerMessage {
  id: string
  /** The chat as the peer sees it (the sender for 1:1 chats, the group otherwise). */
  chatId: Jid
  from: Jid
  text?: string
  /** The peer's own receipt: `read` once it read the message. */
  status?: string
  quotedMessageId?: string
  edited?: boolean
  revoked?: boolean
  reactions?: { from: Jid; emoji: string }[]
}

/** Another account on the network (a phone the test controls). */
export interface HarnessPeer {
  /** Digits with country code. */
  phone: string
  /** `<phone>@s.whatsapp.net`. */
  jid: Jid
  /** Sends a text as this account to a user or group JID; resolves with the message id. */
  send(to: Jid, text: string, options?: { quotedMessageId?: string }): Promise<string>
  /** Every message the account received, oldest first. */
  inbox(): Promise<PeerMessage[]>
  /** Reads received messages of a chat (the sender gets `read`). */
  read(chatId: Jid, messageIds: string[]): Promise<void>
  /** Reacts to a message of a chat (an empty emoji removes the reaction). */
  react?(chatId: Jid, messageId: string, emoji: string): Promise<void>
  /** Typing indicators the account sees now. */
  presences?(): Promise<{ from: Jid; state: string }[]>
}

export interface DriverHarness {
  /** The driver under test (replaced by {@link DriverHarness.restart}). */
  driver: NetworkDriver
  /** The clock the driver runs on, when the harness controls time; without one the suite waits in real time. */
  clock?: TestClock
  /** The account sessions link to. */
  me: { phone: string }
  /** Other accounts; group tests need two. */
  peers: HarnessPeer[]
  /** A valid number that is not registered on the network. */
  unregisteredPhone: string
  /** The session's auth store (the same data across {@link DriverHarness.restart}). */
  authFor(sessionId: string): AuthStore
  /** Opens the session and links it to `me` (by QR or any other way); resolves once it is `open`. */
  link(sessionId: string): Promise<Me>
  /** `me` scans a QR payload the driver showed. */
  scan?(qr: string): Promise<void>
  /** `me` enters a pairing code the driver gave for `me.phone`. */
  enterCode?(code: string): Promise<void>
  /** A new driver over the same network and auth stores (a service restart); resolves with it. */
  restart?(): Promise<NetworkDriver>
  /** The network drops the session's connection. */
  drop?(sessionId: string): Promise<void>
  /** `me` removes the session from its phone's linked devices. */
  unlinkFromPhone?(sessionId: string): Promise<void>
  /** Capabilities this harness lacks, with the reason. */
  unsupported?: Partial<Record<DriverCapability, string>>
  close(): Promise<void>
}
