/**
 * Profile and contacts: own name and about text, number checks.
 * @module
 */
import assert from 'node:assert/strict'
import type { ContractKit, MochaGlobals } from './kit.js'

export function registerProfileAndContacts(k: ContractKit, { describe, it }: MochaGlobals): void {
  describe('profile and contacts', () => {
    it('reads and changes its own name and about text', async function () {
      k.need(this, 'profile')
      const s = k.sid()
      await k.h.link(s)
      const before = await k.h.driver.profile(s, { op: 'get' })
      assert.equal(before.id, k.meJid())
      assert.equal(before.phone, k.h.me.phone)
      await k.h.driver.profile(s, { op: 'setName', name: 'Contract Name' })
      await k.h.driver.profile(s, { op: 'setStatus', status: 'Testing drivers' })
      const after = await k.h.driver.profile(s, { op: 'get' })
      assert.equal(after.name, 'Contract Name')
      assert.equal(after.status, 'Testing drivers')
    })

    it('checks which numbers are registered', async function () {
      k.need(this, 'contacts')
      const s = k.sid()
      await k.h.link(s)
      const answers = await k.h.driver.contact(s, { op: 'check', phones: [k.peer().phone, k.h.unregisteredPhone] })
      assert.equal(answers.length, 2)
      assert.deepEqual(
        answers.map(({ phone, exists, jid }) => ({ phone, exists, jid })),
        [
          { phone: k.peer().phone, exists: true, jid: k.peer().jid },
          { phone: k.h.unregisteredPhone, exists: false, jid: `${k.h.unregisteredPhone}@s.whatsapp.net` },
        ],
      )
    })
  })
}
