/**
 * Our outbound content → Baileys `AnyMessageContent`. Media always goes in as a Buffer, never as
 * `{ url }` (Baileys opens any non-http string as a local file). Text never asks for a link
 * preview, so Baileys does not fetch URLs found in user text.
 * @module
 */
import type { AnyMessageContent, WAMessage, WAMessageKey } from '@whiskeysockets/baileys'
import type { MessageRef, OutboundContent } from '../types.js'
import { rawToMessage } from './codec.js'

const VOICE_NOTE_MIME = 'audio/ogg; codecs=opus'

function audioMime(mimetype: string, ptt: boolean): string {
  if (ptt && /^audio\/ogg\b/i.test(mimetype) && !/codecs=/i.test(mimetype)) return VOICE_NOTE_MIME
  return mimetype
}

export function buildContent(content: OutboundContent): AnyMessageContent {
  switch (content.type) {
    case 'text':
      return { text: content.text, linkPreview: null }
    case 'image':
      return {
        image: content.media.data,
        mimetype: content.media.mimetype,
        ...(content.caption !== undefined ? { caption: content.caption } : {}),
      }
    case 'video':
      return {
        video: content.media.data,
        mimetype: content.media.mimetype,
        ...(content.caption !== undefined ? { caption: content.caption } : {}),
      }
    case 'audio':
      return { audio: content.media.data, mimetype: audioMime(content.media.mimetype, content.ptt), ptt: content.ptt }
    case 'document':
      return {
        document: content.media.data,
        mimetype: content.media.mimetype,
        fileName: content.media.filename,
        ...(content.caption !== undefined ? { caption: content.caption } : {}),
      }
    case 'sticker':
      return { sticker: content.media.data, mimetype: content.media.mimetype }
    case 'contact':
      return { contacts: { displayName: content.name, contacts: [{ displayName: content.name, vcard: content.vcard }] } }
    case 'location':
      return {
        location: {
          degreesLatitude: content.latitude,
          degreesLongitude: content.longitude,
          ...(content.description !== undefined ? { name: content.description } : {}),
        },
      }
    case 'poll':
      return { poll: { name: content.name, values: content.options, selectableCount: content.selectableCount } }
  }
}

/** The Baileys key of a message we recorded: the recorded one when we have it (it keeps the LID form). */
export function keyOf(ref: MessageRef): WAMessageKey {
  const recorded = rawToMessage(ref.raw)?.key
  if (recorded?.id === ref.id) return recorded
  return {
    remoteJid: ref.chatId,
    id: ref.id,
    fromMe: ref.fromMe,
    ...(ref.participant !== undefined ? { participant: ref.participant } : {}),
  }
}

/**
 * The full message to quote. Baileys copies `quoted.message` into the reply, so the recorded
 * message is used; without one, an empty text stands in (the reply still points at the id).
 */
export function quotedMessage(ref: MessageRef): WAMessage {
  const recorded = rawToMessage(ref.raw)
  if (recorded?.message && recorded.key.id === ref.id) return recorded
  return {
    key: keyOf(ref),
    message: { conversation: '' },
    ...(ref.timestampSec !== undefined ? { messageTimestamp: ref.timestampSec } : {}),
  }
}
