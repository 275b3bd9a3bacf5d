/**
 * Connection faults and closing: drop, offline delivery, unlink from the phone, logout, close.
 * @module
 */
import assert from 'node:assert/strict'
import type { ContractKit, MochaGlobals } from './kit.js'

export function registerConnection(k: ContractKit, { describe, it }: MochaGlobals): void {
  describe('connection faults and closing', () => {
    it('comes back after a dropped connection', async function () {
      k.need(this, 'drop', k.h.drop)
      const s = k.sid()
      await k.h.link(s)
      const from = k.rec.of('connection.update', s).length
      await k.h.drop!(s)
      const lost = await k.update(s, 'disconnected', from)
      assert.equal(lost.willReconnect, true)
      await k.update(s, 'open', from)
      const sent = await k.sendText(s, k.peer().jid, 'back again')
      await k.inPeerInbox(k.peer(), sent.id)
    })

    it('delivers what arrived while closed on the next open, marked offline', async function () {
      k.need(this, 'offlineDelivery')
      const s = k.sid()
      await k.h.link(s)
      await k.h.driver.close(s)
      const id = await k.peer().send(k.meJid(), 'while you were away')
      const from = k.rec.of('connection.update', s).length
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      await k.update(s, 'open', from)
      const message = await k.received(s, id)
      assert.equal(message.offline, true)
      assert.equal(message.body, 'while you were away')
    })

    it('goes logged_out and loses its credentials when the phone unlinks it', async function () {
      k.need(this, 'unlinkFromPhone', k.h.unlinkFromPhone)
      const s = k.sid()
      await k.h.link(s)
      await k.h.unlinkFromPhone!(s)
      await k.update(s, 'logged_out')
      assert.equal(await k.h.authFor(s).readCreds(), undefined)
    })

    it('close({ logout: true }) unlinks: closed, credentials gone, the next open shows a QR', async function () {
      const s = k.sid()
      await k.h.link(s)
      await k.h.driver.close(s, { logout: true })
      assert.equal(k.rec.states(s).at(-1), 'closed')
      assert.equal(await k.h.authFor(s).readCreds(), undefined)
      const from = k.rec.of('connection.update', s).length
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      await k.update(s, 'qr', from)
      assert.ok(!k.rec.states(s, from).includes('open'))
    })

    it('close() keeps the link: the next open comes back without a QR', async function () {
      const s = k.sid()
      await k.h.link(s)
      await k.h.driver.close(s)
      assert.equal(k.rec.states(s).at(-1), 'closed')
      const from = k.rec.of('connection.update', s).length
      await k.h.driver.open(s, { auth: k.h.authFor(s) })
      await k.update(s, 'open', from)
      assert.ok(!k.rec.states(s, from).includes('qr'))
    })

    it('closing twice, or closing a session never opened, is a no-op', async function () {
      const s = k.sid()
      await k.h.link(s)
      await k.h.driver.close(s)
      await k.h.driver.close(s)
      await k.h.driver.close('contract-never-opened')
      assert.equal(k.rec.states(s).filter((state) => state === 'closed').length, 1)
      assert.equal(k.rec.of('connection.update', 'contract-never-opened').length, 0)
    })
  })
}
