/**
 * The cryptography the emulator needs, taken from Baileys' own exports so both ends of the wire
 * compute the same bytes (Curve25519/XEdDSA from libsignal, HKDF, AES-GCM/CTR, HMAC, PBKDF2).
 * @module
 */
import {
  Curve,
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  aesEncryptGCM,
  derivePairingCodeKey,
  hkdf,
  hmacSign,
  sha256,
} from '@whiskeysockets/baileys'

/** A Curve25519 key pair with 32-byte keys (no 0x05 prefix on the public key). */
export interface KeyPair {
  public: Buffer
  private: Buffer
}

export const newKeyPair = (): KeyPair => {
  const pair = Curve.generateKeyPair()
  return { public: Buffer.from(pair.public), private: Buffer.from(pair.private) }
}

export const sharedKey = (privateKey: Uint8Array, publicKey: Uint8Array): Buffer =>
  Buffer.from(Curve.sharedKey(privateKey, publicKey))

export const sign = (privateKey: Uint8Array, data: Uint8Array): Buffer => Buffer.from(Curve.sign(privateKey, data))

export const verify = (publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean =>
  Curve.verify(publicKey, data, signature)

export const hkdfExpand = (ikm: Uint8Array, length: number, salt: Uint8Array | undefined, info: string): Buffer =>
  Buffer.from(hkdf(Buffer.from(ikm), length, salt ? { salt: Buffer.from(salt), info } : { info }))

export const sha256Of = (data: Uint8Array): Buffer => Buffer.from(sha256(Buffer.from(data)))

export const hmacSha256 = (data: Uint8Array, key: Uint8Array): Buffer => Buffer.from(hmacSign(data, key))

export const gcmEncrypt = (plaintext: Uint8Array, key: Uint8Array, iv: Uint8Array, aad: Uint8Array): Buffer =>
  aesEncryptGCM(plaintext, key, iv, aad)

export const gcmDecrypt = (ciphertext: Uint8Array, key: Uint8Array, iv: Uint8Array, aad: Uint8Array): Buffer =>
  aesDecryptGCM(ciphertext, key, iv, aad)

export const ctrEncrypt = (plaintext: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer =>
  aesEncryptCTR(plaintext, key, iv)

export const ctrDecrypt = (ciphertext: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer =>
  aesDecryptCTR(ciphertext, key, iv)

/** PBKDF2 (131,072 rounds) of a pairing code, as both the companion and the phone derive it. */
export const pairingCodeKey = (code: string, salt: Uint8Array): Promise<Buffer> =>
  derivePairingCodeKey(code, Buffer.from(salt))
