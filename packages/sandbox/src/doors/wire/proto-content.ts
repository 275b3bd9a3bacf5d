/**
 * Message content between WhatsApp's protobuf (what Baileys clients send and read) and the
 * sandbox world's shapes (the driver port's `OutboundContent`, the inbox view).
 * @module
 */
import { randomBytes } from 'node:crypto'
import { normalizeMessageContent, proto } from '@whiskeysockets/baileys'
import type { InboundMessage, OutboundContent } from '@switchboard/core'
import type { InboxMessage } from '../../world/views.js'
import type { EncryptedMedia, WireMediaType } from './media-host.js'

/** What a companion's message asks the world to do. */
export type WireIntent =
  | { kind: 'send'; content: OutboundContent; quotedId?: string }
  | { kind: 'react'; targetId: string; targetFromMe: boolean; emoji: string }
  | { kind: 'edit'; targetId: string; text: string }
  | { kind: 'revoke'; targetId: string }
  | { kind: 'pin'; targetId: string; targetFromMe: boolean; pin: boolean; durationSec: number }
  | { kind: 'media'; media: WireMediaRef; quotedId?: string }
  | { kind: 'ignore'; reason: string }

/** A media message as a companion sent it: where the encrypted file is and how to read it. */
export interface WireMediaRef {
  type: WireMediaType
  /** The direct path (or URL) on the media host. */
  path: string
  mediaKey: Uint8Array
  mimetype: string
  caption?: string
  fileName?: string
  ptt?: boolean
}

const textOf = (m: proto.IMessage | null | undefined): string | undefined =>
  m?.conversation ?? m?.extendedTextMessage?.text ?? undefined

/** Reads what a companion sent. Media is not carried over the wire yet. */
export function intentOf(raw: proto.IMessage): WireIntent {
  const m = normalizeMessageContent(raw)
  if (!m) return { kind: 'ignore', reason: 'empty message' }
  if (m.reactionMessage) {
    const key = m.reactionMessage.key
    if (!key?.id) return { kind: 'ignore', reason: 'reaction without a key' }
    return { kind: 'react', targetId: key.id, targetFromMe: key.fromMe ?? false, emoji: m.reactionMessage.text ?? '' }
  }
  const pinned = m.pinInChatMessage
  if (pinned) {
    if (!pinned.key?.id) return { kind: 'ignore', reason: 'pin without a key' }
    return {
      kind: 'pin',
      targetId: pinned.key.id,
      targetFromMe: pinned.key.fromMe ?? false,
      pin: pinned.type === proto.Message.PinInChatMessage.Type.PIN_FOR_ALL,
      durationSec: raw.messageContextInfo?.messageAddOnDurationInSecs ?? 86_400,
    }
  }
  const pm = m.protocolMessage
  if (pm) {
    const targetId = pm.key?.id
    if (!targetId) return { kind: 'ignore', reason: 'protocol message without a key' }
    if (pm.type === proto.Message.ProtocolMessage.Type.REVOKE) return { kind: 'revoke', targetId }
    if (pm.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
      const text = textOf(pm.editedMessage)
      return text === undefined ? { kind: 'ignore', reason: 'edit without text' } : { kind: 'edit', targetId, text }
    }
    return { kind: 'ignore', reason: `protocol message type ${pm.type}` }
  }
  if (m.conversation !== undefined && m.conversation !== null) return { kind: 'send', content: { type: 'text', text: m.conversation } }
  if (m.extendedTextMessage) {
    const quotedId = m.extendedTextMessage.contextInfo?.stanzaId ?? undefined
    return {
      kind: 'send',
      content: { type: 'text', text: m.extendedTextMessage.text ?? '' },
      ...(quotedId ? { quotedId } : {}),
    }
  }
  if (m.contactMessage) {
    const vcard = m.contactMessage.vcard ?? ''
    const phone = /waid=(\d+)/.exec(vcard)?.[1] ?? /TEL[^:]*:([+\d\s-]+)/.exec(vcard)?.[1]?.replace(/\D/g, '') ?? ''
    const name = m.contactMessage.displayName || (/^FN:(.*)$/m.exec(vcard)?.[1]?.trim() ?? '')
    return { kind: 'send', content: { type: 'contact', name, phone, vcard } }
  }
  if (m.locationMessage) {
    const l = m.locationMessage
    const description = l.name ?? l.address ?? undefined
    return {
      kind: 'send',
      content: {
        type: 'location',
        latitude: l.degreesLatitude ?? 0,
        longitude: l.degreesLongitude ?? 0,
        ...(description ? { description } : {}),
      },
    }
  }
  const poll = m.pollCreationMessage ?? m.pollCreationMessageV3 ?? m.pollCreationMessageV2
  if (poll) {
    return {
      kind: 'send',
      content: {
        type: 'poll',
        name: poll.name ?? '',
        options: (poll.options ?? []).map((o) => o.optionName ?? ''),
        selectableCount: poll.selectableOptionsCount ?? 0,
      },
    }
  }
  const media = mediaRefOf(m)
  if (media) {
    const quotedId = (m.imageMessage ?? m.videoMessage ?? m.audioMessage ?? m.documentMessage ?? m.stickerMessage)?.contextInfo?.stanzaId ?? undefined
    return typeof media === 'string' ? { kind: 'ignore', reason: media } : { kind: 'media', media, ...(quotedId ? { quotedId } : {}) }
  }
  return { kind: 'ignore', reason: `unsupported content: ${Object.keys(m).join(', ')}` }
}

function mediaRefOf(m: proto.IMessage): WireMediaRef | string | undefined {
  const found: [WireMediaType, proto.Message.IImageMessage & proto.Message.IDocumentMessage & proto.Message.IAudioMessage][] = []
  if (m.imageMessage) found.push(['image', m.imageMessage])
  else if (m.videoMessage) found.push(['video', m.videoMessage as never])
  else if (m.audioMessage) found.push(['audio', m.audioMessage as never])
  else if (m.documentMessage) found.push(['document', m.documentMessage as never])
  else if (m.stickerMessage) found.push(['sticker', m.stickerMessage as never])
  const [entry] = found
  if (!entry) return undefined
  const [type, info] = entry
  const path = info.directPath ?? info.url
  if (!path || !info.mediaKey) return 'media message without a path or key'
  return {
    type,
    path,
    mediaKey: info.mediaKey,
    mimetype: info.mimetype ?? 'application/octet-stream',
    ...(info.caption ? { caption: info.caption } : {}),
    ...(info.fileName ? { fileName: info.fileName } : {}),
    ...(type === 'audio' && info.ptt ? { ptt: true } : {}),
  }
}

/** The world's content for a companion's media message, once its file is read. */
export function mediaContent(ref: WireMediaRef, data: Buffer): OutboundContent {
  const media = { data, mimetype: ref.mimetype }
  switch (ref.type) {
    case 'image':
    case 'video':
      return { type: ref.type, media, ...(ref.caption ? { caption: ref.caption } : {}) }
    case 'audio':
      return { type: 'audio', media, ptt: ref.ptt ?? false }
    case 'document':
      return { type: 'document', media: { ...media, filename: ref.fileName ?? 'file' }, ...(ref.caption ? { caption: ref.caption } : {}) }
    case 'sticker':
      return { type: 'sticker', media }
  }
}

/** The media kind of a received message type, if it is one. */
export function mediaTypeOf(type: InboundMessage['type']): WireMediaType | undefined {
  switch (type) {
    case 'imageMessage':
      return 'image'
    case 'videoMessage':
      return 'video'
    case 'audioMessage':
      return 'audio'
    case 'documentMessage':
      return 'document'
    case 'stickerMessage':
      return 'sticker'
    default:
      return undefined
  }
}

/** A media message pointing at a file the door encrypted and keeps on its media host. */
export function mediaProto(
  type: WireMediaType,
  file: EncryptedMedia,
  details: { mimetype: string; caption?: string; fileName?: string; timestampSec: number },
  quotedWireId: string | undefined,
): proto.IMessage {
  const info = {
    url: file.url,
    directPath: file.directPath,
    mediaKey: file.mediaKey,
    fileSha256: file.fileSha256,
    fileEncSha256: file.fileEncSha256,
    fileLength: file.fileLength,
    mimetype: details.mimetype,
    mediaKeyTimestamp: details.timestampSec,
    ...(quotedWireId ? { contextInfo: { stanzaId: quotedWireId, quotedMessage: { conversation: '' } } } : {}),
  }
  const caption = details.caption ? { caption: details.caption } : {}
  switch (type) {
    case 'image':
      return { imageMessage: { ...info, ...caption } }
    case 'video':
      return { videoMessage: { ...info, ...caption } }
    case 'audio':
      return { audioMessage: info }
    case 'document':
      return { documentMessage: { ...info, ...caption, fileName: details.fileName ?? 'file' } }
    case 'sticker':
      return { stickerMessage: info }
  }
}

/**
 * The protobuf a companion receives for a world message. `inbox` is the viewer's inbox entry
 * when it has one (it carries what the driver event leaves out: contact card, coordinates, poll).
 */
export function protoOf(message: InboundMessage, inbox: InboxMessage | undefined, quotedWireId: string | undefined): proto.IMessage {
  const quoted = quotedWireId ? { stanzaId: quotedWireId, quotedMessage: { conversation: '' } } : undefined
  switch (message.type) {
    case 'conversation':
    case 'extendedTextMessage': {
      const text = inbox?.text ?? message.body
      return quoted || message.type === 'extendedTextMessage'
        ? { extendedTextMessage: { text, ...(quoted ? { contextInfo: quoted } : {}) } }
        : { conversation: text }
    }
    case 'contactMessage':
      return { contactMessage: { displayName: inbox?.contact?.name ?? message.body, vcard: inbox?.contact?.vcard ?? '' } }
    case 'locationMessage':
      return {
        locationMessage: {
          degreesLatitude: inbox?.location?.latitude ?? 0,
          degreesLongitude: inbox?.location?.longitude ?? 0,
          ...(inbox?.location?.description ? { name: inbox.location.description } : {}),
        },
      }
    case 'pollCreationMessage': {
      const poll = {
        name: inbox?.poll?.name ?? message.body,
        options: (inbox?.poll?.options ?? []).map((optionName) => ({ optionName })),
        selectableOptionsCount: inbox?.poll?.selectableCount ?? 0,
      }
      return {
        ...(poll.selectableOptionsCount === 1 ? { pollCreationMessageV3: poll } : { pollCreationMessage: poll }),
        messageContextInfo: { messageSecret: randomBytes(32) },
      }
    }
    default:
      // Media is not carried over the wire yet: the companion sees what a phone shows for it.
      return { conversation: message.body || `[${message.type}]` }
  }
}
