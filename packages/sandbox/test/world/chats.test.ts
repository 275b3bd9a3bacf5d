import { expect } from 'chai'
import { T0 } from '@switchboard/core/testing'
import { caught } from '../support/setup.js'
import { makeWorld } from '../support/world.js'

const A = '15550001111'
const B = '15550002222'
const C = '15550003333'
const jid = (p: string) => `${p}@s.whatsapp.net`
const text = (t: string) => ({ type: 'text' as const, text: t })

describe('world.chats', () => {
  it('lists chats most recent first, with unread counts and names', async () => {
    const f = makeWorld()
    f.world.messages.send(B, { to: jid(A), content: text('1') })
    await f.clock.tick(1000)
    const group = f.world.groups.create(C, 'Club', [jid(A)])
    await f.clock.tick(1000)
    f.world.messages.send(C, { to: jid(A), content: text('2') })
    expect(f.world.chats.list(A)).to.deep.equal([
      { id: jid(C), name: 'Sandbox 15550003333', unreadCount: 1, timestampSec: Math.floor(T0 / 1000) + 2, archived: false },
      { id: group.id, name: 'Club', unreadCount: 0, timestampSec: Math.floor(T0 / 1000) + 1, archived: false },
      { id: jid(B), name: 'Sandbox 15550002222', unreadCount: 1, timestampSec: Math.floor(T0 / 1000), archived: false },
    ])
  })

  it('archives, unarchives, marks unread; reading clears the mark', () => {
    const f = makeWorld()
    const m = f.world.messages.send(B, { to: jid(A), content: text('x') })
    f.world.chats.archive(A, jid(B), true)
    expect(f.world.chats.chat(A, jid(B))).to.include({ archived: true })
    f.world.chats.archive(A, `${B}@c.us`, false)
    f.world.actions.read(A, jid(B), [m.id])
    f.world.chats.markUnread(A, jid(B))
    expect(f.world.chats.list(A)[0]).to.include({ unreadCount: 1, archived: false })
    f.world.chats.markRead(A, jid(B))
    expect(f.world.chats.list(A)[0]).to.include({ unreadCount: 0 })
  })

  it('a deleted chat leaves the list until a new message comes', async () => {
    const f = makeWorld()
    f.world.messages.send(B, { to: jid(A), content: text('old') })
    f.world.chats.delete(A, jid(B))
    expect(f.world.chats.list(A)).to.deep.equal([])
    await f.clock.tick(1000)
    f.world.messages.send(B, { to: jid(A), content: text('new') })
    expect(f.world.chats.list(A).map((c) => c.id)).to.deep.equal([jid(B)])
    expect(f.world.messages.inbox(A)).to.have.length(2, 'the network still delivered both')
  })

  it('refuses chat ids that are no JID or number with `Invalid JID format`', async () => {
    const f = makeWorld()
    expect(await caught(() => f.world.chats.archive(A, 'someone@example.com', true))).to.include({ code: 'INVALID_JID' })
  })

  it('shows a typing indicator to the other party for about 10 seconds', async () => {
    const f = makeWorld()
    f.world.chats.presence(A, jid(B), 'composing')
    expect(f.world.chats.presencesFor(B)).to.deep.equal([{ from: jid(A), chatId: jid(A), state: 'composing', atMs: T0 }])
    expect(f.world.chats.presencesFor(C)).to.deep.equal([])
    expect(f.world.chats.presencesFor(A)).to.deep.equal([])
    await f.clock.tick(10_001)
    expect(f.world.chats.presencesFor(B)).to.deep.equal([])
  })

  it('shows a typing indicator in a group to its members', () => {
    const f = makeWorld()
    const group = f.world.groups.create(A, 'G', [jid(B)])
    f.world.chats.presence(A, group.id, 'recording')
    expect(f.world.chats.presencesFor(B)).to.deep.equal([{ from: jid(A), chatId: group.id, state: 'recording', atMs: T0 }])
    expect(f.world.chats.presencesFor(C)).to.deep.equal([])
  })
})

describe('world.calls', () => {
  it("rings the callee's devices, then reports how it ended (once)", () => {
    const f = makeWorld()
    f.device(B, 's-b')
    const id = f.world.calls.offer(A, jid(B), true)
    f.world.calls.end(id, 'timeout')
    f.world.calls.end(id, 'reject')
    f.deliver()
    expect(f.of('s-b', 'call').map((c) => [c.status, c.isVideo, c.from])).to.deep.equal([
      ['offer', true, jid(A)],
      ['timeout', true, jid(A)],
    ])
    expect(id).to.match(/^[0-9A-F]{32}$/)
  })

  it('cannot call unregistered numbers or groups', async () => {
    const f = makeWorld()
    expect(await caught(() => f.world.calls.offer(A, jid('15550009999')))).to.include({ code: 'NUMBER_NOT_REGISTERED' })
    expect(await caught(() => f.world.calls.offer(A, '120363000000000000@g.us'))).to.include({ code: 'INVALID_JID' })
  })
})
