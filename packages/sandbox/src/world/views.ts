/**
 * The world's messages as one party sees them: the driver's received message and the control
 * API's inbox entry.
 * @module
 */
import { unixSeconds, userJid } from '@switchboard/core'
import type { InboundMessage, InboundType, Jid } from '@switchboard/core'
import { bodyOf, inboundType, mediaOf } from './content.js'
import type { AccountRecord, MessageRecord } from './records.js'

/** The chat a message belongs to, for `viewer`: the group, or the other party of a 1:1 chat. */
export function chatOf(message: MessageRecord, viewer: string): Jid {
  if (message.isGroup) return message.to
  return viewer === message.fromPhone ? message.to : userJid(message.fromPhone)
}

/** Every account the message concerns (sender and receivers). */
export function partiesOf(message: MessageRecord): string[] {
  return [...new Set([message.fromPhone, ...message.recipients])]
}

export function currentText(message: MessageRecord): string | undefined {
  return message.edits.at(-1)?.text ?? (message.content.type === 'text' ? message.content.text : undefined)
}

/** The message as the driver port's received message, for a device of `viewer`. */
export function inboundView(message: MessageRecord, viewer: string, sender: AccountRecord): InboundMessage {
  const media = mediaOf(message.content)
  return {
    id: message.id,
    chatId: chatOf(message, viewer),
    from: sender.jid,
    fromLid: sender.lid,
    to: message.to,
    fromMe: viewer === message.fromPhone,
    isGroup: message.isGroup,
    ...(message.isGroup ? { participant: sender.jid } : {}),
    pushName: sender.name,
    type: inboundType(message.content, message.quotedId !== undefined),
    body: bodyOf(message.content, message.edits.at(-1)?.text),
    timestampSec: unixSeconds(message.atMs),
    ...(media ? { media } : {}),
    ...(message.quotedId === undefined ? {} : { quotedMessageId: message.quotedId }),
  }
}

/** An entry of an account's inbox (the control API's `GET /sandbox/accounts/{phone}/messages`). */
export interface InboxMessage {
  id: string
  chatId: Jid
  from: Jid
  to: Jid
  type: InboundType
  text?: string
  caption?: string
  mimetype?: string
  filename?: string
  /** Unix seconds. */
  timestamp: number
  /** This account's receipt: `delivered`, or `read` once it read the message. */
  status: 'delivered' | 'read'
  quotedMessageId?: string
  /** The text was edited by its sender (`text` is the latest version). */
  edited?: true
  /** Deleted for everyone by its sender (the content is gone). */
  revoked?: true
  /** Current reactions, oldest first. */
  reactions?: { from: Jid; emoji: string }[]
  starred?: true
  pinned?: true
  contact?: { name: string; phone: string; vcard: string }
  location?: { latitude: number; longitude: number; description?: string }
  poll?: { name: string; options: string[]; selectableCount: number }
}

/** The inbox entry of `message` for the receiving account `viewer`; fields that don't apply are absent. */
export function inboxView(message: MessageRecord, viewer: string, nowMs: number): InboxMessage {
  const receipt = message.receipts[viewer]
  const reactions = Object.entries(message.reactions)
    .sort(([, a], [, b]) => a.atMs - b.atMs)
    .map(([phone, r]) => ({ from: userJid(phone), emoji: r.emoji }))
  const entry: InboxMessage = {
    id: message.id,
    chatId: chatOf(message, viewer),
    from: userJid(message.fromPhone),
    to: message.to,
    type: inboundType(message.content, message.quotedId !== undefined),
    timestamp: unixSeconds(message.atMs),
    status: receipt?.readAtMs === undefined ? 'delivered' : 'read',
    ...(message.quotedId === undefined ? {} : { quotedMessageId: message.quotedId }),
    ...(message.edits.length > 0 ? { edited: true as const } : {}),
    ...(reactions.length > 0 ? { reactions } : {}),
    ...(message.starredBy.includes(viewer) ? { starred: true as const } : {}),
    ...(message.pinned && message.pinned.untilMs > nowMs ? { pinned: true as const } : {}),
  }
  if (message.revoked) return { ...entry, revoked: true }
  const content = message.content
  switch (content.type) {
    case 'text':
      return { ...entry, text: currentText(message) ?? content.text }
    case 'contact':
      return { ...entry, contact: { name: content.name, phone: content.phone, vcard: content.vcard } }
    case 'location':
      return { ...entry, location: { latitude: content.latitude, longitude: content.longitude, ...(content.description === undefined ? {} : { description: content.description }) } }
    case 'poll':
      return { ...entry, poll: { name: content.name, options: content.options, selectableCount: content.selectableCount } }
    default: {
      const caption = 'caption' in content ? content.caption : undefined
      const filename = content.media.filename
      return {
        ...entry,
        mimetype: content.media.mimetype,
        ...(caption === undefined ? {} : { caption }),
        ...(filename === undefined ? {} : { filename }),
      }
    }
  }
}
