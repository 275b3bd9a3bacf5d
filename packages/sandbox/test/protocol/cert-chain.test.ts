import { expect } from 'chai'
import { proto } from '@whiskeysockets/baileys'
// libsignal's own verifier returns a boolean (Baileys' Curve.verify ignores it, see protocol-server.test.ts).
import * as curve from 'libsignal/src/curve.js'
import { createCertAuthority } from '../../src/doors/wire/cert-chain.js'
import { newKeyPair } from '../../src/doors/wire/crypto.js'

const withType = (k: Uint8Array) => Buffer.concat([Buffer.from([5]), k])

describe('protocol door: certificate chain', () => {
  it('signs the intermediate with the root and the leaf (the static key) with the intermediate', () => {
    const ca = createCertAuthority()
    const serverStatic = newKeyPair()
    const chain = proto.CertChain.decode(ca.chainFor(serverStatic.public))
    const intermediate = proto.CertChain.NoiseCertificate.Details.decode(chain.intermediate!.details!)
    const leaf = proto.CertChain.NoiseCertificate.Details.decode(chain.leaf!.details!)
    expect(intermediate.issuerSerial).to.equal(0)
    expect(leaf.issuerSerial).to.equal(intermediate.serial)
    expect(Buffer.from(leaf.key!).equals(serverStatic.public)).to.equal(true)
    const verify = (key: Uint8Array, msg: Uint8Array, sig: Uint8Array) => (curve as { verifySignature: (...a: unknown[]) => boolean }).verifySignature(withType(key), msg, sig)
    expect(verify(ca.rootPublicKey, chain.intermediate!.details!, chain.intermediate!.signature!)).to.equal(true)
    expect(verify(intermediate.key!, chain.leaf!.details!, chain.leaf!.signature!)).to.equal(true)
    expect(verify(newKeyPair().public, chain.intermediate!.details!, chain.intermediate!.signature!)).to.equal(false)
  })

  it('keeps a given root (a persisted trust anchor)', () => {
    const root = newKeyPair()
    expect(createCertAuthority(root).rootPublicKey.equals(root.public)).to.equal(true)
  })
})
