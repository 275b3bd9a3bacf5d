/**
 * How message content looks to its receivers: the spec's received-message type, the body text
 * and the media facts.
 * @module
 */
import type { InboundMessage, InboundType, OutboundContent } from '@switchboard/core'

const URL_IN_TEXT = /\bhttps?:\/\/\S/i

/** The spec's `message.type`: replies and texts with a link are `extendedTextMessage`, as WhatsApp sends them. */
export function inboundType(content: OutboundContent, quoted: boolean): InboundType {
  switch (content.type) {
    case 'text':
      return quoted || URL_IN_TEXT.test(content.text) ? 'extendedTextMessage' : 'conversation'
    case 'image':
      return 'imageMessage'
    case 'video':
      return 'videoMessage'
    case 'audio':
      return 'audioMessage'
    case 'document':
      return 'documentMessage'
    case 'sticker':
      return 'stickerMessage'
    case 'contact':
      return 'contactMessage'
    case 'location':
      return 'locationMessage'
    case 'poll':
      return 'pollCreationMessage'
  }
}

/** Text, the caption of a media message, or what a chat list would show for the other kinds. */
export function bodyOf(content: OutboundContent, editedText?: string): string {
  switch (content.type) {
    case 'text':
      return editedText ?? content.text
    case 'image':
    case 'video':
    case 'document':
      return content.caption ?? ''
    case 'contact':
      return content.name
    case 'location':
      return content.description ?? ''
    case 'poll':
      return content.name
    default:
      return ''
  }
}

/** Media facts of a media message. */
export function mediaOf(content: OutboundContent): InboundMessage['media'] {
  if (!('media' in content)) return undefined
  const { mimetype, filename, data } = content.media
  return { mimetype, ...(filename === undefined ? {} : { filename }), sizeBytes: data.length }
}
