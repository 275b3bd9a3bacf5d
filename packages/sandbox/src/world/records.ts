/**
 * The world's persisted records. Plain data (JSON plus Buffers), so any store backend keeps them;
 * phones are digits with country code, times epoch milliseconds unless the name says otherwise.
 * @module
 */
import type { Jid, OutboundContent } from '@switchboard/core'

/** A simulated phone on the network. */
export interface AccountRecord {
  phone: string
  /** `<phone>@s.whatsapp.net`. */
  jid: Jid
  /** `<digits>@lid`, stable for the account's life. */
  lid: Jid
  name: string
  about: string | null
  aboutSetAtMs: number | null
  picture: PictureRecord | null
  /** PN JIDs this account has blocked. */
  blocked: Jid[]
  /** Device number the next linked device gets (the phone itself is device 0). */
  nextDeviceId: number
  /** Hides picture and about from everyone (WhatsApp's "Nobody" privacy setting). */
  hidden?: boolean
  createdAtMs: number
}

export interface PictureRecord {
  /** Public URL of the picture (changes with every new picture, as on WhatsApp). */
  url: string
  mimetype: string
  data: Buffer
  setAtMs: number
}

/** A device (a gateway session) linked to an account. */
export interface LinkRecord {
  sessionId: string
  phone: string
  deviceId: number
  method: 'qr' | 'code'
  linkedAtMs: number
}

export interface ReceiptRecord {
  deliveredAtMs: number
  readAtMs?: number
}

/** One message on the network, with the state every party sees. */
export interface MessageRecord {
  id: string
  /** Order of sending (timestamps collide within a second). */
  seq: number
  fromPhone: string
  /** The recipient's PN JID (1:1) or the group JID. */
  to: Jid
  isGroup: boolean
  /** Phones that received a copy (blocked senders and the sender itself excluded). */
  recipients: string[]
  content: OutboundContent
  quotedId?: string
  atMs: number
  /** By recipient phone. */
  receipts: Record<string, ReceiptRecord>
  /** By reacting phone; removing a reaction deletes the entry. */
  reactions: Record<string, { emoji: string; atMs: number }>
  edits: { text: string; atMs: number }[]
  revoked?: { byPhone: string; atMs: number }
  pinned?: { byPhone: string; untilMs: number }
  /** Phones that starred the message. */
  starredBy: string[]
}

export type AdminRole = 'superadmin' | 'admin' | null

export interface GroupMember {
  phone: string
  admin: AdminRole
  joinedAtMs: number
}

export interface GroupRecord {
  /** `120363…@g.us`. */
  id: Jid
  subject: string
  description: string | null
  /** Creator's phone; null once the creator left. */
  owner: string | null
  createdAtMs: number
  participants: GroupMember[]
  inviteCode: string
  announce: boolean
}

/** Chat-list state of one account for one chat (shared by its linked devices, as WhatsApp syncs it). */
export interface ChatRecord {
  archived: boolean
  markedUnread: boolean
  /** The chat was deleted at this time (messages before it no longer show in the chat list). */
  deletedAtMs?: number
}
