/**
 * Network identifiers in WhatsApp's shapes, derived from the injected {@link NewId} so that tests
 * with sequential ids get stable values and production gets random ones.
 * @module
 */
import { createHash } from 'node:crypto'
import type { Jid, NewId } from '@switchboard/core'

const digest = (seed: string): Buffer => createHash('sha256').update(seed).digest()

const digitsOf = (seed: string, length: number): string => {
  const n = BigInt(`0x${digest(seed).toString('hex')}`) % 10n ** BigInt(length)
  return n.toString().padStart(length, '0')
}

/** WhatsApp Web message ids: `3EB0` and 16 upper-case hex digits. */
export function messageId(newId: NewId): string {
  return `3EB0${digest(`msg:${newId()}`).toString('hex').slice(0, 16).toUpperCase()}`
}

/** A group JID in today's form, `120363` and 12 digits; `taken` rejects collisions. */
export function groupJid(newId: NewId, taken: (jid: Jid) => boolean): Jid {
  for (;;) {
    const jid = `120363${digitsOf(`group:${newId()}`, 12)}@g.us`
    if (!taken(jid)) return jid
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A 22-character invite code (`https://chat.whatsapp.com/<code>`). */
export function inviteCode(newId: NewId): string {
  return [...digest(`invite:${newId()}`).subarray(0, 22)].map((b) => BASE62[b % 62]).join('')
}

/** The account's LID, stable for a phone number. */
export function lidOf(phone: string): Jid {
  return `${1 + Number(digitsOf(`lid:${phone}`, 1)) % 9}${digitsOf(`lid:${phone}`, 14)}@lid`
}

/** Crockford-like alphabet of WhatsApp's pairing codes (no 0, I, O, U). */
export const PAIRING_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ'

/** An 8-character pairing code. */
export function pairingCode(newId: NewId): string {
  return [...digest(`code:${newId()}`).subarray(0, 8)].map((b) => PAIRING_ALPHABET[b % 32]).join('')
}

/** The random part of a QR payload. */
export function qrRef(newId: NewId): string {
  return digest(`qr:${newId()}`).subarray(0, 12).toString('base64url')
}

/** A call id in WhatsApp's form (32 upper-case hex digits). */
export function callId(newId: NewId): string {
  return digest(`call:${newId()}`).subarray(0, 16).toString('hex').toUpperCase()
}
