/**
 * The server side of WhatsApp Web's transport: 3-byte length framing after a client intro, the
 * Noise `XX_25519_AESGCM_SHA256` handshake (mirroring Baileys' `Utils/noise-handler`), then
 * AES-GCM transport frames with one counter per direction.
 * @module
 */
import { NOISE_MODE, NOISE_WA_HEADER, proto } from '@whiskeysockets/baileys'
import {
  gcmDecrypt,
  gcmEncrypt,
  hkdfExpand,
  newKeyPair,
  sha256Of,
  sharedKey,
  type KeyPair,
} from './crypto.js'

const EMPTY = Buffer.alloc(0)

const ivOf = (counter: number): Buffer => {
  const iv = Buffer.alloc(12)
  iv.writeUInt32BE(counter, 8)
  return iv
}

/**
 * Splits the client byte stream into frames. The first bytes are the intro: `WA 6 3`, or an `ED`
 * routing prefix followed by it.
 */
export class FrameReader {
  #buffer: Buffer = EMPTY
  #introDone = false

  /** Adds bytes; returns every complete frame (throws on a malformed intro). */
  push(data: Buffer): Buffer[] {
    this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, data]) : data
    if (!this.#introDone) {
      if (!this.#stripIntro()) return []
    }
    const frames: Buffer[] = []
    while (this.#buffer.length >= 3) {
      const size = (this.#buffer[0]! << 16) | (this.#buffer[1]! << 8) | this.#buffer[2]!
      if (this.#buffer.length < size + 3) break
      frames.push(this.#buffer.subarray(3, size + 3))
      this.#buffer = this.#buffer.subarray(size + 3)
    }
    return frames
  }

  #stripIntro(): boolean {
    const b = this.#buffer
    let offset = 0
    if (b.length >= 2 && b[0] === 0x45 && b[1] === 0x44) {
      if (b.length < 7) return false
      const routingLength = (b[4]! << 16) | b.readUInt16BE(5)
      offset = 7 + routingLength
    }
    if (b.length < offset + NOISE_WA_HEADER.length) return false
    if (!b.subarray(offset, offset + NOISE_WA_HEADER.length).equals(NOISE_WA_HEADER)) {
      throw new Error('bad client intro')
    }
    this.#buffer = b.subarray(offset + NOISE_WA_HEADER.length)
    this.#introDone = true
    return true
  }
}

/** Prefixes a payload with its 3-byte big-endian length. */
export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(payload.length + 3)
  out[0] = (payload.length >>> 16) & 0xff
  out[1] = (payload.length >>> 8) & 0xff
  out[2] = payload.length & 0xff
  out.set(payload, 3)
  return out
}

/** AES-GCM transport keys after the handshake: the server decrypts with the client's write key. */
export class NoiseTransport {
  #readCounter = 0
  #writeCounter = 0

  constructor(
    private readonly encKey: Buffer,
    private readonly decKey: Buffer,
  ) {}

  encrypt(plaintext: Uint8Array): Buffer {
    return gcmEncrypt(plaintext, this.encKey, ivOf(this.#writeCounter++), EMPTY)
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    return gcmDecrypt(ciphertext, this.decKey, ivOf(this.#readCounter++), EMPTY)
  }
}

export interface ClientFinishResult {
  /** The client's Noise static public key (its `creds.noiseKey.public`). */
  clientStatic: Buffer
  payload: proto.ClientPayload
  transport: NoiseTransport
}

/** One server-side Noise XX handshake. */
export class NoiseHandshake {
  #hash: Buffer
  #salt: Buffer
  #key: Buffer
  #counter = 0
  readonly #ephemeral: KeyPair = newKeyPair()

  constructor(
    private readonly staticKey: KeyPair,
    private readonly certChain: Uint8Array,
  ) {
    const mode = Buffer.from(NOISE_MODE)
    this.#hash = mode.length === 32 ? mode : sha256Of(mode)
    this.#salt = this.#hash
    this.#key = this.#hash
    this.#mixHash(NOISE_WA_HEADER)
  }

  /** Answers the ClientHello frame with the ServerHello frame payload. */
  serverHello(clientHelloFrame: Uint8Array): Uint8Array {
    const hello = proto.HandshakeMessage.decode(clientHelloFrame).clientHello
    if (!hello?.ephemeral || hello.ephemeral.length !== 32) throw new Error('missing client ephemeral')
    this.#clientEphemeral = Buffer.from(hello.ephemeral)
    this.#mixHash(this.#clientEphemeral)
    this.#mixHash(this.#ephemeral.public)
    this.#mixKey(sharedKey(this.#ephemeral.private, this.#clientEphemeral))
    const staticEnc = this.#encrypt(this.staticKey.public)
    this.#mixKey(sharedKey(this.staticKey.private, this.#clientEphemeral))
    const payloadEnc = this.#encrypt(this.certChain)
    return proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.#ephemeral.public, static: staticEnc, payload: payloadEnc },
    }).finish()
  }

  /** Reads the ClientFinish frame: the client's static key and its ClientPayload. */
  clientFinish(clientFinishFrame: Uint8Array): ClientFinishResult {
    const finish = proto.HandshakeMessage.decode(clientFinishFrame).clientFinish
    if (!finish?.static || !finish.payload) throw new Error('missing client finish')
    const clientStatic = this.#decrypt(finish.static)
    this.#mixKey(sharedKey(this.#ephemeral.private, clientStatic))
    const payload = proto.ClientPayload.decode(this.#decrypt(finish.payload))
    const keys = hkdfExpand(EMPTY, 64, this.#salt, '')
    // The client writes with the first half and reads with the second.
    const transport = new NoiseTransport(keys.subarray(32), keys.subarray(0, 32))
    return { clientStatic, payload, transport }
  }

  #clientEphemeral: Buffer = EMPTY

  #mixHash(data: Uint8Array): void {
    this.#hash = sha256Of(Buffer.concat([this.#hash, data]))
  }

  #mixKey(data: Uint8Array): void {
    const out = hkdfExpand(data, 64, this.#salt, '')
    this.#salt = out.subarray(0, 32)
    this.#key = out.subarray(32)
    this.#counter = 0
  }

  #encrypt(plaintext: Uint8Array): Buffer {
    const result = gcmEncrypt(plaintext, this.#key, ivOf(this.#counter++), this.#hash)
    this.#mixHash(result)
    return result
  }

  #decrypt(ciphertext: Uint8Array): Buffer {
    const result = gcmDecrypt(ciphertext, this.#key, ivOf(this.#counter++), this.#hash)
    this.#mixHash(ciphertext)
    return result
  }
}
