/**
 * Linking, played by the account's phone: the QR payload a companion shows, the signed
 * `pair-success` (ADV device identity), and the pairing-code key exchange
 * (`link_code_companion_reg`), mirroring what Baileys' `configureSuccessfulPairing` and
 * `messages-recv` expect.
 * @module
 */
import { randomBytes } from 'node:crypto'
import { proto } from '@whiskeysockets/baileys'
import {
  ctrDecrypt,
  ctrEncrypt,
  gcmDecrypt,
  hkdfExpand,
  hmacSha256,
  newKeyPair,
  pairingCodeKey,
  sharedKey,
  sign,
  type KeyPair,
} from './crypto.js'
import { lidJid, pnJid } from './jids.js'
import { node, S_WHATSAPP_NET, type BinaryNode } from './nodes.js'

const QR_PREFIX = 'https://wa.me/settings/linked_devices#'
const ADV_ACCOUNT_SIG_PREFIX = Buffer.from([6, 0])

export interface ParsedQr {
  ref: string
  noiseKey: Buffer
  identityKey: Buffer
  advSecret: Buffer
  platformId: string
}

/** Reads the string a Baileys client renders as its QR code; undefined when it is not one. */
export function parseQr(qr: string): ParsedQr | undefined {
  const body = qr.startsWith(QR_PREFIX) ? qr.slice(QR_PREFIX.length) : undefined
  const parts = body?.split(',')
  if (!parts || parts.length < 4) return undefined
  const [ref, noise, identity, adv, platformId = ''] = parts
  const noiseKey = Buffer.from(noise!, 'base64')
  const identityKey = Buffer.from(identity!, 'base64')
  const advSecret = Buffer.from(adv!, 'base64')
  if (!ref || noiseKey.length !== 32 || identityKey.length !== 32 || advSecret.length !== 32) return undefined
  return { ref, noiseKey, identityKey, advSecret, platformId }
}

/** A fresh pairing ref (what a QR code carries first). */
export const newRef = (): string => `2@${randomBytes(18).toString('base64')}`

export interface PairSuccessInput {
  phone: string
  lid: string
  deviceId: number
  keyIndex: number
  /** The account's identity key pair: it signs the companion (ADV account signature). */
  account: { public: Uint8Array; private: Uint8Array }
  companionIdentity: Uint8Array
  advSecret: Uint8Array
  platform: string
  /** The account's name; Baileys keeps it as `creds.me.name`, needed to send global presence. */
  name: string
  nowSec: number
}

/** The `<iq><pair-success>` the server pushes once the phone has approved a companion. */
export function pairSuccess(input: PairSuccessInput): BinaryNode {
  const details = proto.ADVDeviceIdentity.encode({
    rawId: randomBytes(4).readUInt32BE(0),
    timestamp: input.nowSec,
    keyIndex: input.keyIndex,
  }).finish()
  const accountSignature = sign(
    input.account.private,
    Buffer.concat([ADV_ACCOUNT_SIG_PREFIX, details, input.companionIdentity]),
  )
  const signed = proto.ADVSignedDeviceIdentity.encode({
    details,
    accountSignatureKey: input.account.public,
    accountSignature,
  }).finish()
  const identity = proto.ADVSignedDeviceIdentityHMAC.encode({
    details: signed,
    hmac: hmacSha256(signed, input.advSecret),
  }).finish()
  return node('iq', { type: 'set', from: S_WHATSAPP_NET, xmlns: 'md', t: String(input.nowSec) }, [
    node('pair-success', {}, [
      node('device-identity', { 'key-index': String(input.keyIndex) }, identity),
      node('platform', { name: input.platform }),
      node('device', { jid: pnJid(input.phone, input.deviceId), lid: lidJid(input.lid, input.deviceId) }),
      // Baileys reads the only name it learns at pairing from here; a real phone syncs it later as
      // app state (pushNameSetting), which the sandbox does not emulate yet.
      node('biz', { name: input.name }),
    ]),
  ])
}

/** The companion's `companion_hello` for a pairing code, as the server keeps it. */
export interface CompanionHello {
  phone: string
  /** salt(32) ‖ iv(16) ‖ AES-CTR(companion ephemeral public key). */
  wrappedEphemeral: Buffer
  platform: string
}

/** The phone's side of a pairing-code exchange, between its notification and the companion's finish. */
export interface PrimaryHello {
  ref: Buffer
  ephemeral: KeyPair
  companionEphemeral: Buffer
  /** The `link_code_companion_reg` notification's child, ready to send. */
  content: BinaryNode
}

/** The phone types `code`: it unwraps the companion's key and wraps its own with the same code. */
export async function primaryHello(code: string, hello: CompanionHello, identity: Uint8Array): Promise<PrimaryHello> {
  const w = hello.wrappedEphemeral
  const companionEphemeral = ctrDecrypt(w.subarray(48, 80), await pairingCodeKey(code, w.subarray(0, 32)), w.subarray(32, 48))
  const ephemeral = newKeyPair()
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  const wrapped = Buffer.concat([salt, iv, ctrEncrypt(ephemeral.public, await pairingCodeKey(code, salt), iv)])
  const ref = Buffer.from(randomBytes(16).toString('hex'))
  const content = node('link_code_companion_reg', { stage: 'primary_hello' }, [
    node('link_code_pairing_ref', {}, ref),
    node('primary_identity_pub', {}, Buffer.from(identity)),
    node('link_code_pairing_wrapped_primary_ephemeral_pub', {}, wrapped),
  ])
  return { ref, ephemeral, companionEphemeral, content }
}

/**
 * Opens the companion's `companion_finish` key bundle and derives the ADV secret both sides now
 * share. Throws when the bundle does not open, which is what a wrong code produces.
 */
export function finishPairing(
  hello: PrimaryHello,
  account: { public: Uint8Array; private: Uint8Array },
  wrappedBundle: Buffer,
): { companionIdentity: Buffer; advSecret: Buffer } {
  const companionShared = sharedKey(hello.ephemeral.private, hello.companionEphemeral)
  const salt = wrappedBundle.subarray(0, 32)
  const iv = wrappedBundle.subarray(32, 44)
  const key = hkdfExpand(companionShared, 32, salt, 'link_code_pairing_key_bundle_encryption_key')
  const payload = gcmDecrypt(wrappedBundle.subarray(44), key, iv, Buffer.alloc(0))
  const companionIdentity = payload.subarray(0, 32)
  const random = payload.subarray(64, 96)
  const identityShared = sharedKey(account.private, companionIdentity)
  const advSecret = hkdfExpand(Buffer.concat([companionShared, identityShared, random]), 32, undefined, 'adv_secret')
  return { companionIdentity: Buffer.from(companionIdentity), advSecret }
}
