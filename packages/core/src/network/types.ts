/**
 * Wire types of the network-driver port: our own shapes, never a network library's.
 * Drivers translate to and from these at their boundary.
 * @module
 */

/** A WhatsApp address: `<digits>@s.whatsapp.net`, `<id>@g.us`, `<id>@lid`. */
export type Jid = string

/**
 * Driver-private data that must survive a restart (for example the full Baileys `WAMessage`
 * needed to quote, edit, revoke or download a message). The gateway stores it in its message
 * records and hands it back untouched. It must be JSON-serializable; Buffers and Uint8Arrays are
 * allowed (the store's codec keeps them).
 */
export type DriverRaw = unknown

/** Who the linked account is. */
export interface Me {
  /** Phone-number JID without device, e.g. `15550001111@s.whatsapp.net`. */
  jid: Jid
  /** Digits only, e.g. `15550001111`. */
  phoneNumber: string
  lid?: Jid
  name?: string
}

/** Enough to address one message on the network. */
export interface MessageRef {
  id: string
  chatId: Jid
  fromMe: boolean
  /** Sender inside a group (absent in 1:1 chats). */
  participant?: Jid
  /** Unix seconds; needed by chat modifications that list the last message. */
  timestampSec?: number
  raw?: DriverRaw
}

/** Media already read and checked by the gateway: the driver never sees a URL or a path. */
export interface MediaPayload {
  data: Buffer
  mimetype: string
  filename?: string
}

export type OutboundContent =
  | { type: 'text'; text: string }
  | { type: 'image'; media: MediaPayload; caption?: string }
  | { type: 'video'; media: MediaPayload; caption?: string }
  | { type: 'audio'; media: MediaPayload; ptt: boolean }
  | { type: 'document'; media: MediaPayload & { filename: string }; caption?: string }
  | { type: 'sticker'; media: MediaPayload }
  | { type: 'contact'; name: string; phone: string; vcard: string }
  | { type: 'location'; latitude: number; longitude: number; description?: string }
  | { type: 'poll'; name: string; options: string[]; selectableCount: number }

export type OutboundType = OutboundContent['type']

export interface SendRequest {
  /** Normalized recipient: a phone-number JID or a group JID. */
  to: Jid
  content: OutboundContent
  /** The message being replied to, as the gateway recorded it. */
  quoted?: MessageRef
}

export interface SentMessage {
  id: string
  /** The JID the message was addressed to. */
  to: Jid
  timestampMs: number
  raw?: DriverRaw
}

/** The spec's received-message types (`message.type` of the `message` event). */
export type InboundType =
  | 'conversation'
  | 'extendedTextMessage'
  | 'imageMessage'
  | 'videoMessage'
  | 'audioMessage'
  | 'documentMessage'
  | 'stickerMessage'
  | 'contactMessage'
  | 'locationMessage'
  | 'pollCreationMessage'
  | 'unknown'

export interface InboundMessage {
  id: string
  /** The chat: the other party's PN JID in 1:1 chats (LID only when no phone number is known), the group JID in groups. */
  chatId: Jid
  /** The sender's PN JID when known (the LID otherwise). */
  from: Jid
  /** The sender's LID when known, so clients can correlate both forms. */
  fromLid?: Jid
  /** Our own JID for 1:1 messages, the group JID for group messages. */
  to: Jid
  fromMe: boolean
  isGroup: boolean
  /** Sender inside a group. */
  participant?: Jid
  pushName?: string
  type: InboundType
  /** Text, or the caption of a media message ('' when none). */
  body: string
  timestampSec: number
  media?: { mimetype: string; filename?: string; sizeBytes?: number }
  quotedMessageId?: string
  /** Received while the session was offline (delivered on reconnect). */
  offline?: boolean
  raw?: DriverRaw
}

export type DeliveryStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'played' | 'failed'

export type PresenceState = 'composing' | 'recording' | 'paused'

export interface GroupParticipant {
  id: Jid
  /** The spec's `admin`: `superadmin` marks the owner, `null` an ordinary member. */
  admin: 'superadmin' | 'admin' | null
  lid?: Jid
}

export interface GroupInfo {
  id: Jid
  name: string
  description: string | null
  owner: Jid | null
  participants: GroupParticipant[]
  announce?: boolean
}

export interface ParticipantResult {
  jid: Jid
  /** `success`, or the reason it failed (e.g. `not-authorized`, `not-registered`, `not-in-group`). */
  status: string
}

export interface ContactInfo {
  id: Jid
  lid?: Jid
  name?: string
  notify?: string
  verifiedName?: string | null
}

export interface ChatInfo {
  id: Jid
  name?: string
  unreadCount?: number
  timestampSec?: number
  archived?: boolean
}

export interface ProfileInfo {
  id: Jid
  name: string
  phone: string
  profilePicture: string | null
  status: string | null
}

export interface AboutInfo {
  about: string | null
  setAt: number | null
}

export interface NumberCheck {
  /** Digits as asked. */
  phone: string
  exists: boolean
  /** The PN JID (`<digits>@s.whatsapp.net`) whether or not it exists. */
  jid: Jid
  lid?: Jid
}

export type CallStatus = 'offer' | 'accept' | 'reject' | 'timeout'
