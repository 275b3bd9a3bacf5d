import { createPrivateKey, X509Certificate } from 'node:crypto'
import { createSecureContext } from 'node:tls'
import { expect } from 'chai'
import { T0 } from '@switchboard/core/testing'
import { selfSignedCertificate } from '../../src/doors/wire/self-signed.js'

describe('protocol door: the media host certificate', () => {
  it('is a valid self-signed CA for the loopback names, every time (minimal DER integers)', () => {
    for (let i = 0; i < 200; i++) {
      const { cert, key } = selfSignedCertificate(T0)
      createSecureContext({ cert, key })
      const x509 = new X509Certificate(cert)
      expect(x509.ca).to.equal(true)
      expect(x509.checkPrivateKey(createPrivateKey(key))).to.equal(true)
      expect(x509.verify(x509.publicKey)).to.equal(true)
      if (i === 0) {
        expect(x509.subject).to.equal('CN=Switchboard sandbox media')
        expect(x509.subjectAltName).to.equal('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost')
        expect(new Date(x509.validFrom).getTime()).to.equal(Math.floor(T0 / 1000) * 1000 - 86_400_000)
      }
    }
  })
})
