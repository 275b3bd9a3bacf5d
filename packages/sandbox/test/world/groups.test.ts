import { expect } from 'chai'
import { caught } from '../support/setup.js'
import { makeWorld } from '../support/world.js'

const A = '15550001111'
const B = '15550002222'
const C = '15550003333'
const D = '15550004444'
const jid = (p: string) => `${p}@s.whatsapp.net`
const roles = (g: { participants: { id: string; admin: unknown }[] }) => Object.fromEntries(g.participants.map((p) => [p.id, p.admin]))

describe('world.groups', () => {
  it('creates a group owned by its creator; unregistered participants are left out', () => {
    const f = makeWorld([A, B, C])
    const group = f.world.groups.create(A, 'Team', [jid(B), jid(C), jid('15550009999'), jid(B)])
    expect(group.id).to.match(/^120363\d{12}@g\.us$/)
    expect(group).to.deep.include({ name: 'Team', description: null, owner: jid(A), announce: false })
    expect(roles(group)).to.deep.equal({ [jid(A)]: 'superadmin', [jid(B)]: null, [jid(C)]: null })
    expect(group.participants[1]!.lid).to.equal(f.world.accounts.get(B).lid)
  })

  it("tells the members' devices (not the creating one): chats.upsert and group.participants add", () => {
    const f = makeWorld([A, B])
    f.device(A, 's-a')
    f.device(B, 's-b')
    const group = f.world.groups.create(A, 'Team', [jid(B)], 's-a')
    f.deliver()
    expect(f.of('s-a', 'chats.upsert')).to.deep.equal([])
    expect(f.of('s-b', 'chats.upsert')[0]!.chats[0]).to.include({ id: group.id, name: 'Team' })
    expect(f.of('s-b', 'group.participants')[0]).to.include({ groupId: group.id, action: 'add', author: jid(A) })
    expect(f.of('s-b', 'group.participants')[0]!.participants).to.deep.equal([jid(B)])
  })

  it('hides groups from non-members (`Group not found`) and refuses non-group ids (`Invalid JID format`)', async () => {
    const f = makeWorld([A, B, C])
    const group = f.world.groups.create(A, 'Team', [jid(B)])
    expect(await caught(() => f.world.groups.metadata(C, group.id))).to.include({ code: 'GROUP_NOT_FOUND', message: 'Group not found', status: 404 })
    expect(await caught(() => f.world.groups.metadata(A, '120363999999999999@g.us'))).to.include({ code: 'GROUP_NOT_FOUND' })
    expect(await caught(() => f.world.groups.metadata(A, jid(B)))).to.include({ code: 'INVALID_JID', message: 'Invalid JID format' })
  })

  it('lets any member rename and describe it; every member hears group.update', () => {
    const f = makeWorld([A, B])
    f.device(A, 's-a')
    const group = f.world.groups.create(A, 'Team', [jid(B)])
    f.world.groups.setSubject(B, group.id, 'Renamed')
    f.world.groups.setDescription(B, group.id, 'About us')
    f.deliver()
    expect(f.world.groups.metadata(A, group.id)).to.include({ name: 'Renamed', description: 'About us' })
    expect(f.of('s-a', 'group.update').map((u) => u.updates)).to.deep.equal([{ subject: 'Renamed' }, { desc: 'About us' }])
    expect(f.of('s-a', 'group.update')[0]!.author).to.equal(jid(B))
    f.world.groups.setDescription(A, group.id, '')
    expect(f.world.groups.metadata(A, group.id).description).to.equal(null)
  })

  it('changes participants: one result per JID, with the reason of each failure', () => {
    const f = makeWorld([A, B, C, D])
    const group = f.world.groups.create(A, 'Team', [jid(B)])
    expect(f.world.groups.participants(A, group.id, 'add', [jid(C), jid(B), jid('15550009999')])).to.deep.equal([
      { jid: jid(C), status: 'success' },
      { jid: jid(B), status: 'already-in-group' },
      { jid: jid('15550009999'), status: 'not-registered' },
    ])
    expect(f.world.groups.participants(A, group.id, 'remove', [jid(D), jid(C)])).to.deep.equal([
      { jid: jid(D), status: 'not-in-group' },
      { jid: jid(C), status: 'success' },
    ])
    expect(f.world.groups.participants(A, group.id, 'promote', [jid(B)])).to.deep.equal([{ jid: jid(B), status: 'success' }])
    expect(roles(f.world.groups.metadata(A, group.id))).to.deep.equal({ [jid(A)]: 'superadmin', [jid(B)]: 'admin' })
    expect(f.world.groups.participants(B, group.id, 'demote', [jid(A)])).to.deep.equal([{ jid: jid(A), status: 'not-authorized' }])
    expect(f.world.groups.participants(B, group.id, 'remove', [jid(A)])).to.deep.equal([{ jid: jid(A), status: 'not-authorized' }])
    expect(f.world.groups.participants(A, group.id, 'demote', [jid(B)])).to.deep.equal([{ jid: jid(B), status: 'success' }])
  })

  it('announces participant changes to members before and after (the removed one too)', () => {
    const f = makeWorld([A, B, C])
    f.device(C, 's-c')
    const group = f.world.groups.create(A, 'Team', [jid(B), jid(C)])
    f.deliver()
    f.heard.length = 0
    f.world.groups.participants(A, group.id, 'remove', [jid(C)])
    f.deliver()
    expect(f.of('s-c', 'group.participants')).to.deep.equal([
      { groupId: group.id, action: 'remove', participants: [jid(C)], author: jid(A), timestampSec: f.world.now() / 1000 | 0 },
    ])
  })

  it('keeps participant changes and the invite link for admins (`Only group admins can do this`)', async () => {
    const f = makeWorld([A, B, C])
    const group = f.world.groups.create(A, 'Team', [jid(B)])
    for (const op of [
      () => f.world.groups.participants(B, group.id, 'add', [jid(C)]),
      () => f.world.groups.inviteCode(B, group.id),
      () => f.world.groups.revokeInvite(B, group.id),
    ]) {
      expect(await caught(op)).to.include({ code: 'GROUP_ADMIN_REQUIRED', message: 'Only group admins can do this', status: 403 })
    }
  })

  it('gives the invite code; revoking makes a new one and the old stops working', async () => {
    const f = makeWorld([A, B, C])
    const group = f.world.groups.create(A, 'Team', [])
    const code = f.world.groups.inviteCode(A, group.id)
    expect(code).to.match(/^[0-9A-Za-z]{22}$/)
    const fresh = f.world.groups.revokeInvite(A, group.id)
    expect(fresh).to.not.equal(code)
    expect(await caught(() => f.world.groups.join(B, code))).to.include({ code: 'GROUP_NOT_FOUND' })
    expect(f.world.groups.join(B, fresh).participants.map((p) => p.id)).to.deep.equal([jid(A), jid(B)])
  })

  it('on leave, hands admin to the longest-standing member when no admin remains', () => {
    const f = makeWorld([A, B, C])
    f.device(B, 's-b')
    const group = f.world.groups.create(A, 'Team', [jid(B), jid(C)])
    f.deliver()
    f.heard.length = 0
    f.world.groups.leave(A, group.id)
    f.deliver()
    const info = f.world.groups.metadata(B, group.id)
    expect(info.owner).to.equal(null)
    expect(roles(info)).to.deep.equal({ [jid(B)]: 'admin', [jid(C)]: null })
    expect(f.of('s-b', 'group.participants').map((e) => [e.action, e.participants])).to.deep.equal([
      ['remove', [jid(A)]],
      ['promote', [jid(B)]],
    ])
  })

  it('lists the groups of an account', () => {
    const f = makeWorld([A, B, C])
    const g1 = f.world.groups.create(A, 'One', [jid(B)])
    f.world.groups.create(C, 'Two', [])
    expect(f.world.groups.of(B).map((g) => g.id)).to.deep.equal([g1.id])
  })
})
