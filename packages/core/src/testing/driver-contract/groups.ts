/**
 * Groups: create, metadata, participants, group sends.
 * @module
 */
import assert from 'node:assert/strict'
import type { HarnessPeer } from '../driver-harness.js'
import type { ContractKit, MochaGlobals } from './kit.js'

export function registerGroups(k: ContractKit, { describe, it }: MochaGlobals): void {
  describe('groups', () => {
    it('creates a group with the peers; metadata names the owner and roles', async function () {
      k.need(this, 'groups', k.h.peers[1])
      const s = k.sid()
      await k.h.link(s)
      const [p1, p2] = k.h.peers as [HarnessPeer, HarnessPeer]
      const created = await k.h.driver.group(s, { op: 'create', name: 'Contract group', participants: [p1.jid, p2.jid] })
      assert.match(created.id, /@g\.us$/)
      assert.equal(created.name, 'Contract group')
      assert.equal(created.owner, k.meJid())
      const roles = (info: typeof created) => Object.fromEntries(info.participants.map((p) => [p.id, p.admin]))
      assert.deepEqual(roles(created), { [k.meJid()]: 'superadmin', [p1.jid]: null, [p2.jid]: null })
      const metadata = await k.h.driver.group(s, { op: 'metadata', groupId: created.id })
      assert.equal(metadata.name, 'Contract group')
      assert.deepEqual(roles(metadata), roles(created))
    })

    it('removes, adds and promotes participants, with group.participants events', async function () {
      k.need(this, 'groups', k.h.peers[1])
      const s = k.sid()
      await k.h.link(s)
      const [p1, p2] = k.h.peers as [HarnessPeer, HarnessPeer]
      const group = await k.h.driver.group(s, { op: 'create', name: 'Changes', participants: [p1.jid, p2.jid] })
      const removed = await k.h.driver.group(s, { op: 'participants', groupId: group.id, action: 'remove', participants: [p2.jid] })
      assert.deepEqual(removed, [{ jid: p2.jid, status: 'success' }])
      await k.until('group.participants remove', () =>
        k.rec.of('group.participants', s).find((e) => e.groupId === group.id && e.action === 'remove' && e.participants.includes(p2.jid)),
      )
      let metadata = await k.h.driver.group(s, { op: 'metadata', groupId: group.id })
      assert.ok(!metadata.participants.some((p) => p.id === p2.jid))
      const added = await k.h.driver.group(s, { op: 'participants', groupId: group.id, action: 'add', participants: [p2.jid] })
      assert.deepEqual(added, [{ jid: p2.jid, status: 'success' }])
      await k.h.driver.group(s, { op: 'participants', groupId: group.id, action: 'promote', participants: [p1.jid] })
      metadata = await k.h.driver.group(s, { op: 'metadata', groupId: group.id })
      assert.equal(metadata.participants.find((p) => p.id === p1.jid)?.admin, 'admin')
      assert.ok(metadata.participants.some((p) => p.id === p2.jid))
    })

    it('sends to a group: every member receives it', async function () {
      k.need(this, 'groups', k.h.peers[1])
      const s = k.sid()
      await k.h.link(s)
      const [p1, p2] = k.h.peers as [HarnessPeer, HarnessPeer]
      const group = await k.h.driver.group(s, { op: 'create', name: 'Broadcast', participants: [p1.jid, p2.jid] })
      const sent = await k.sendText(s, group.id, 'hello group')
      for (const p of [p1, p2]) {
        const got = await k.inPeerInbox(p, sent.id)
        assert.equal(got.chatId, group.id)
      }
    })
  })
}
