/**
 * Received Baileys messages → our {@link InboundMessage}: type, body, media facts and addresses,
 * with the phone-number JID shown whenever one is known.
 * @module
 */
import {
  getContentType,
  isJidGroup,
  normalizeMessageContent,
  proto,
  type WAMessage,
  type WAMessageContent,
} from '@whiskeysockets/baileys'
import type { DeliveryStatus, InboundMessage, InboundType, Me } from '../types.js'
import { messageToRaw, numberOf } from './codec.js'
import type { IdentityTable } from './identity.js'

const TYPE_OF: Record<string, InboundType> = {
  conversation: 'conversation',
  extendedTextMessage: 'extendedTextMessage',
  imageMessage: 'imageMessage',
  videoMessage: 'videoMessage',
  ptvMessage: 'videoMessage',
  audioMessage: 'audioMessage',
  documentMessage: 'documentMessage',
  stickerMessage: 'stickerMessage',
  contactMessage: 'contactMessage',
  contactsArrayMessage: 'contactMessage',
  locationMessage: 'locationMessage',
  liveLocationMessage: 'locationMessage',
  pollCreationMessage: 'pollCreationMessage',
  pollCreationMessageV2: 'pollCreationMessage',
  pollCreationMessageV3: 'pollCreationMessage',
}

/** Content types that are signals, not messages a user wrote (they have their own events). */
const NOT_A_MESSAGE = new Set([
  'protocolMessage',
  'reactionMessage',
  'pollUpdateMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'keepInChatMessage',
  'encReactionMessage',
  'encEventResponseMessage',
  'pinInChatMessage',
])

const STATUS_OF: Record<number, DeliveryStatus> = {
  [proto.WebMessageInfo.Status.ERROR]: 'failed',
  [proto.WebMessageInfo.Status.PENDING]: 'pending',
  [proto.WebMessageInfo.Status.SERVER_ACK]: 'sent',
  [proto.WebMessageInfo.Status.DELIVERY_ACK]: 'delivered',
  [proto.WebMessageInfo.Status.READ]: 'read',
  [proto.WebMessageInfo.Status.PLAYED]: 'played',
}

export function deliveryStatusOf(status: unknown): DeliveryStatus | undefined {
  return typeof status === 'number' ? STATUS_OF[status] : undefined
}

/** The content type of a message a user wrote, or undefined for signals, stubs and failures. */
export function userContentType(message: WAMessage): string | undefined {
  const content = normalizeMessageContent(message.message)
  if (!content) return undefined
  const type = getContentType(content)
  if (!type || NOT_A_MESSAGE.has(type)) return undefined
  return type
}

interface MediaLike {
  mimetype?: string | null
  fileName?: string | null
  fileLength?: unknown
  caption?: string | null
}

/** Text, caption or the most telling field of a message ('' when none). */
export function bodyOf(content: WAMessageContent, type: string): string {
  switch (type) {
    case 'conversation':
      return content.conversation ?? ''
    case 'extendedTextMessage':
      return content.extendedTextMessage?.text ?? ''
    case 'contactMessage':
      return content.contactMessage?.displayName ?? ''
    case 'contactsArrayMessage':
      return content.contactsArrayMessage?.displayName ?? ''
    case 'locationMessage':
      return content.locationMessage?.name ?? content.locationMessage?.address ?? ''
    case 'liveLocationMessage':
      return content.liveLocationMessage?.caption ?? ''
    case 'pollCreationMessage':
    case 'pollCreationMessageV2':
    case 'pollCreationMessageV3':
      return (content[type] as { name?: string | null } | null | undefined)?.name ?? ''
    default:
      return ((content as Record<string, MediaLike | null | undefined>)[type]?.caption ?? '') || ''
  }
}

const MEDIA_TYPES = new Set(['imageMessage', 'videoMessage', 'ptvMessage', 'audioMessage', 'documentMessage', 'stickerMessage'])

/** Context info (quote) of any content type. */
function quotedIdOf(content: WAMessageContent, type: string): string | undefined {
  const inner = (content as Record<string, { contextInfo?: proto.IContextInfo | null } | null | undefined>)[type]
  return inner?.contextInfo?.stanzaId ?? undefined
}

export interface InboundContext {
  me: Me | undefined
  identity: IdentityTable
  /** The upsert was of type `append` (delivered later, or sent from another device). */
  appended: boolean
}

/** Maps one received message; undefined when it is not a user message (signals, stubs, failures). */
export async function toInbound(message: WAMessage, ctx: InboundContext): Promise<InboundMessage | undefined> {
  const type = userContentType(message)
  const key = message.key
  if (!type || !key.id || !key.remoteJid) return undefined
  const content = normalizeMessageContent(message.message)!
  const isGroup = isJidGroup(key.remoteJid) === true
  const fromMe = key.fromMe === true
  const chat = isGroup ? { jid: key.remoteJid } : await ctx.identity.resolve(key.remoteJid, key.remoteJidAlt)
  const chatId = chat?.jid ?? key.remoteJid
  const sender = fromMe
    ? { jid: ctx.me?.jid ?? chatId, ...(ctx.me?.lid !== undefined ? { lid: ctx.me.lid } : {}) }
    : isGroup
      ? await ctx.identity.resolve(key.participant, key.participantAlt)
      : chat
  const from = sender?.jid ?? chatId
  const mediaInfo = MEDIA_TYPES.has(type) ? (content as Record<string, MediaLike | null | undefined>)[type] : undefined
  const quotedMessageId = quotedIdOf(content, type)
  const inbound: InboundMessage = {
    id: key.id,
    chatId,
    from,
    to: isGroup ? chatId : fromMe ? chatId : (ctx.me?.jid ?? chatId),
    fromMe,
    isGroup,
    type: TYPE_OF[type] ?? 'unknown',
    body: bodyOf(content, type),
    timestampSec: numberOf(message.messageTimestamp),
    raw: messageToRaw(message),
  }
  if (sender?.lid !== undefined) inbound.fromLid = sender.lid
  if (isGroup && sender) inbound.participant = sender.jid
  if (message.pushName) inbound.pushName = message.pushName
  if (mediaInfo) {
    inbound.media = { mimetype: mediaInfo.mimetype ?? 'application/octet-stream' }
    if (mediaInfo.fileName) inbound.media.filename = mediaInfo.fileName
    const size = numberOf(mediaInfo.fileLength)
    if (size > 0) inbound.media.sizeBytes = size
  }
  if (quotedMessageId) inbound.quotedMessageId = quotedMessageId
  if (ctx.appended && !fromMe) inbound.offline = true
  return inbound
}
