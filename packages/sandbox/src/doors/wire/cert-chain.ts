/**
 * The Noise certificate chain the server presents in its ServerHello. Baileys (since rc10) checks
 * that the intermediate is signed by `WA_CERT_DETAILS.PUBLIC_KEY` with issuer serial 0 and that the
 * leaf is signed by the intermediate. The emulator generates its own root, so a client must trust
 * that root (see {@link applyTrustAnchor}).
 * @module
 */
import { proto } from '@whiskeysockets/baileys'
import { newKeyPair, sign, type KeyPair } from './crypto.js'

/** The certificate authority of one emulator: a root key and an intermediate signed by it. */
export interface CertAuthority {
  /** 32-byte Curve25519 public key clients must trust. */
  readonly rootPublicKey: Buffer
  /** The encoded `CertChain` for a server whose Noise static public key is `staticPublicKey`. */
  chainFor(staticPublicKey: Uint8Array): Uint8Array
}

const ROOT_SERIAL = 0
const INTERMEDIATE_SERIAL = 1

/**
 * Makes a certificate authority. Pass `root` to keep the same trust anchor across restarts (the
 * CLI and persisted sandboxes do); by default a fresh root is generated.
 */
export function createCertAuthority(root: KeyPair = newKeyPair()): CertAuthority & { root: KeyPair } {
  const intermediate = newKeyPair()
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: INTERMEDIATE_SERIAL,
    issuerSerial: ROOT_SERIAL,
    key: intermediate.public,
    notBefore: 0,
    notAfter: 0,
  }).finish()
  const intermediateCert = { details: intermediateDetails, signature: sign(root.private, intermediateDetails) }
  return {
    root,
    rootPublicKey: root.public,
    chainFor(staticPublicKey) {
      const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({
        serial: 2,
        issuerSerial: INTERMEDIATE_SERIAL,
        key: staticPublicKey,
        notBefore: 0,
        notAfter: 0,
      }).finish()
      return proto.CertChain.encode({
        leaf: { details: leafDetails, signature: sign(intermediate.private, leafDetails) },
        intermediate: intermediateCert,
      }).finish()
    },
  }
}
