/**
 * Linking: QR, pairing code, no-op open, restore after a restart.
 * @module
 */
import assert from 'node:assert/strict'
import type { ContractKit, MochaGlobals } from './kit.js'

export function registerLinking(k: ContractKit, { describe, it }: MochaGlobals): void {
  describe('linking', () => {
    it('links by QR: starting, qr, connecting, authenticated, open', async function () {
      k.need(this, 'scan', k.h.scan)
      const s = k.sid()
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      const qr = await k.update(s, 'qr')
      assert.equal(typeof qr.qr, 'string')
      assert.ok(qr.qr.length > 0, 'the QR payload is not empty')
      await k.h.scan!(qr.qr)
      const open = await k.update(s, 'open')
      assert.deepEqual(k.rec.states(s), ['starting', 'qr', 'connecting', 'authenticated', 'open'])
      assert.equal(open.me.phoneNumber, k.h.me.phone)
      assert.equal(open.me.jid, k.meJid())
      const authenticated = await k.update(s, 'authenticated')
      assert.equal(authenticated.me.jid, open.me.jid)
    })

    it('links by a pairing code entered on the phone', async function () {
      k.need(this, 'pairingCode', k.h.enterCode)
      const s = k.sid()
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      await k.update(s, 'qr')
      const code = await k.h.driver.requestPairingCode(s, k.h.me.phone)
      assert.match(code, /^[A-Z0-9]{8}$/)
      await k.h.enterCode!(code)
      const open = await k.update(s, 'open')
      assert.equal(open.me.phoneNumber, k.h.me.phone)
      assert.ok(k.rec.states(s).includes('authenticated'))
    })

    it('link() leaves the session open as the harness account', async function () {
      const s = k.sid()
      const me = await k.h.link(s)
      assert.equal(me.phoneNumber, k.h.me.phone)
      assert.equal(me.jid, k.meJid())
      assert.equal(k.rec.states(s).at(-1), 'open')
    })

    it('opening an open session changes nothing', async function () {
      const s = k.sid()
      await k.h.link(s)
      const before = k.rec.of('connection.update', s).length
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      await k.pause(1000)
      assert.equal(k.rec.of('connection.update', s).length, before)
    })

    it('restores a linked session after a restart, without a QR', async function () {
      k.need(this, 'restart', k.h.restart)
      const s = k.sid()
      await k.h.link(s)
      await k.h.driver.shutdown()
      k.rec.attach((k.h.driver = await k.h.restart!()))
      const from = k.rec.of('connection.update', s).length
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      const open = await k.update(s, 'open', from)
      assert.equal(open.me.phoneNumber, k.h.me.phone)
      assert.deepEqual(k.rec.states(s, from), ['starting', 'connecting', 'open'])
    })
  })
}
