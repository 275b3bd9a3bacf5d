/**
 * The one test-only hook the protocol door needs in the client.
 *
 * Baileys (since 7.0.0-rc10) verifies the server's Noise certificate chain against WhatsApp's root
 * key, `WA_CERT_DETAILS.PUBLIC_KEY`. The emulator cannot sign with WhatsApp's key, so it signs with
 * its own root, and the client process must trust that root instead. `WA_CERT_DETAILS` is a plain,
 * unfrozen object that Baileys reads at every handshake, so setting its `PUBLIC_KEY` is enough.
 *
 * This changes the trust anchor for EVERY Baileys socket in the process: a process that has applied
 * it would accept the emulator (or anyone holding its root key) as WhatsApp. Apply it only in tests
 * and in `SWITCHBOARD_NETWORK=sandbox-wire`, never in a process that talks to the real network.
 * @module
 */
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys'

const WHATSAPP_ROOT = Buffer.from(WA_CERT_DETAILS.PUBLIC_KEY)

/** Makes this process's Baileys trust `rootPublicKey` (32 bytes) instead of WhatsApp's root. */
export function applyTrustAnchor(rootPublicKey: Uint8Array): void {
  if (rootPublicKey.length !== 32) throw new Error('the trust anchor must be a 32-byte Curve25519 public key')
  ;(WA_CERT_DETAILS as { PUBLIC_KEY: Buffer }).PUBLIC_KEY = Buffer.from(rootPublicKey)
}

/** Puts WhatsApp's own root key back (tests that applied an anchor call it when done). */
export function restoreTrustAnchor(): void {
  ;(WA_CERT_DETAILS as { PUBLIC_KEY: Buffer }).PUBLIC_KEY = Buffer.from(WHATSAPP_ROOT)
}
