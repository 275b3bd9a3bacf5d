/**
 * Media download of a recorded message, with the re-upload retry Baileys rc14 no longer does by
 * itself: on 404/410 the phone is asked to re-upload (`updateMediaMessage`), then the download is
 * tried once more.
 * @module
 */
import { getContentType, normalizeMessageContent } from '@whiskeysockets/baileys'
import { GatewayError } from '../../errors/index.js'
import type { Logger } from '../../kernel/logger.js'
import type { MediaPayload, MessageRef } from '../types.js'
import { rawToMessage } from './codec.js'
import { statusCodeOf, translated } from './errors.js'
import type { DownloadMedia } from './settings.js'
import type { BaileysSocket } from './socket.js'

const MEDIA_TYPES = new Set(['imageMessage', 'videoMessage', 'ptvMessage', 'audioMessage', 'documentMessage', 'stickerMessage'])
const REUPLOAD_CODES = new Set([404, 410])

export interface MediaDeps {
  sock: BaileysSocket
  download: DownloadMedia
  logger: Logger
  requestInit?: RequestInit
}

export async function downloadMedia(deps: MediaDeps, ref: MessageRef): Promise<MediaPayload> {
  let message = rawToMessage(ref.raw)
  const content = normalizeMessageContent(message?.message)
  const type = content ? getContentType(content) : undefined
  if (!message || !content || !type || !MEDIA_TYPES.has(type)) throw new GatewayError('MESSAGE_NOT_FOUND')
  const media = content[type] as { mimetype?: string | null; fileName?: string | null }
  const options = deps.requestInit ? { options: deps.requestInit } : {}
  const data = await translated('media', async () => {
    try {
      return await deps.download(message!, 'buffer', options)
    } catch (err) {
      if (!REUPLOAD_CODES.has(statusCodeOf(err) ?? 0)) throw err
      deps.logger.info({ messageId: ref.id }, 'media expired on the server; asking the phone to re-upload')
      message = await deps.sock.updateMediaMessage(message!)
      return deps.download(message, 'buffer', options)
    }
  })
  const payload: MediaPayload = { data, mimetype: media.mimetype ?? 'application/octet-stream' }
  if (media.fileName) payload.filename = media.fileName
  return payload
}
