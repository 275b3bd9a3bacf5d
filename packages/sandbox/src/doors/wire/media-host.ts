/**
 * The loopback media host: where companions upload encrypted media (`/mms/<type>/<token>`, the
 * host the `media_conn` IQ names) and download it (`/m/<id>`), over HTTPS with a self-signed
 * certificate, since Baileys only speaks HTTPS to media hosts. Also WhatsApp's media encryption
 * (AES-256-CBC with keys expanded from a per-file media key, a 10-byte HMAC appended), so the
 * door can read what companions send and encrypt what the world sends. Blobs live in memory.
 * @module
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { getMediaKeys } from '@whiskeysockets/baileys'
import { selfSignedCertificate } from './self-signed.js'

/** Media kinds as WhatsApp derives their keys. */
export type WireMediaType = 'image' | 'video' | 'audio' | 'document' | 'sticker'

/** What a media message carries about its file. */
export interface EncryptedMedia {
  url: string
  directPath: string
  mediaKey: Buffer
  fileSha256: Buffer
  fileEncSha256: Buffer
  fileLength: number
}

const MAX_UPLOAD_BYTES = 64 * 1024 * 1024

/** The IV, cipher key and MAC key WhatsApp expands from a media key (Baileys' own derivation). */
async function keysOf(mediaKey: Buffer, type: WireMediaType): Promise<{ iv: Buffer; cipherKey: Buffer; macKey: Buffer }> {
  const keys = await getMediaKeys(mediaKey, type)
  return { iv: Buffer.from(keys.iv!), cipherKey: Buffer.from(keys.cipherKey!), macKey: Buffer.from(keys.macKey!) }
}

export class MediaHost {
  readonly #blobs = new Map<string, Buffer>()
  #server: Server | undefined
  /** `127.0.0.1:port`: the hostname `media_conn` gives out. */
  hostname = ''

  private constructor(
    /** The PEM certificate clients of this mode trust (`ca`). */
    readonly certificate: string,
  ) {}

  /** Listens on a free loopback port with a fresh self-signed certificate. */
  static async listen(nowMs: number, host = '127.0.0.1'): Promise<MediaHost> {
    const { cert, key } = selfSignedCertificate(nowMs)
    const media = new MediaHost(cert)
    const server = createServer({ cert, key }, (req, res) => media.#handle(req, res))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, host, () => resolve())
    })
    media.#server = server
    media.hostname = `${host}:${(server.address() as AddressInfo).port}`
    return media
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'https://media').pathname
    if (req.method === 'POST' && path.startsWith('/mms/')) {
      const chunks: Buffer[] = []
      let size = 0
      req.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= MAX_UPLOAD_BYTES) chunks.push(chunk)
      })
      req.on('end', () => {
        if (size > MAX_UPLOAD_BYTES) return void res.writeHead(413).end()
        const stored = this.store(Buffer.concat(chunks))
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: stored.url, direct_path: stored.directPath }))
      })
      return
    }
    const blob = req.method === 'GET' ? this.#blobs.get(path) : undefined
    if (!blob) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': blob.length }).end(blob)
  }

  /** Keeps a blob; returns where it can be downloaded. */
  store(blob: Buffer): { url: string; directPath: string } {
    const directPath = `/m/${randomBytes(12).toString('hex')}`
    this.#blobs.set(directPath, blob)
    return { url: `https://${this.hostname}${directPath}`, directPath }
  }

  /** A stored blob by its direct path or URL. */
  fetch(pathOrUrl: string): Buffer | undefined {
    const path = pathOrUrl.startsWith('https://') ? new URL(pathOrUrl).pathname : pathOrUrl.split('?')[0]!
    return this.#blobs.get(path)
  }

  /** Encrypts a file with a fresh media key and keeps it: what a media message needs. */
  async put(data: Buffer, type: WireMediaType): Promise<EncryptedMedia> {
    const mediaKey = randomBytes(32)
    const { iv, cipherKey, macKey } = await keysOf(mediaKey, type)
    const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
    const enc = Buffer.concat([cipher.update(data), cipher.final()])
    const mac = createHmac('sha256', macKey).update(iv).update(enc).digest().subarray(0, 10)
    const body = Buffer.concat([enc, mac])
    return {
      ...this.store(body),
      mediaKey,
      fileSha256: createHash('sha256').update(data).digest(),
      fileEncSha256: createHash('sha256').update(body).digest(),
      fileLength: data.length,
    }
  }

  /** Reads a file a companion uploaded, given the message's path and media key. */
  async get(pathOrUrl: string, mediaKey: Uint8Array, type: WireMediaType): Promise<Buffer | undefined> {
    const body = this.fetch(pathOrUrl)
    if (!body || body.length < 10) return undefined
    const { iv, cipherKey, macKey } = await keysOf(Buffer.from(mediaKey), type)
    const enc = body.subarray(0, -10)
    const mac = createHmac('sha256', macKey).update(iv).update(enc).digest().subarray(0, 10)
    if (!mac.equals(body.subarray(-10))) return undefined
    const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv)
    return Buffer.concat([decipher.update(enc), decipher.final()])
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()))
  }
}
