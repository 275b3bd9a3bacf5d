import { expect } from 'chai'
import { fixture } from './support/fixtures.js'
import { ALICE, BOB, GROUP, openLinked, SESSION, setup } from './support/setup.js'

describe('BaileysDriver group, contact, chat and call events', () => {
  it('maps group-participants.update with object participants to PN JIDs, author included', async () => {
    const h = setup()
    const socket = await openLinked(h)
    const fx = fixture('groups.json')
    for (const name of ['participantsAdd', 'participantsRemove', 'participantsPromote', 'participantsModify']) {
      socket.emit('group-participants.update', fx[name])
    }
    await h.settle()
    const events = h.of('group.participants').map(({ timestampSec, ...rest }) => rest)
    expect(events).to.deep.equal([
      { sessionId: SESSION, groupId: GROUP, action: 'add', participants: ['15550005555@s.whatsapp.net', '15550006666@s.whatsapp.net'], author: ALICE.pn },
      { sessionId: SESSION, groupId: GROUP, action: 'remove', participants: ['15550005555@s.whatsapp.net'], author: '15550005555@s.whatsapp.net' },
      { sessionId: SESSION, groupId: GROUP, action: 'promote', participants: ['15550006666@s.whatsapp.net'], author: ALICE.pn },
    ])
    const mappings = h.of('identity.mapping').flatMap((e) => e.mappings)
    expect(mappings).to.deep.include({ lid: '88880005555@lid', pn: '15550005555@s.whatsapp.net' })
    expect(mappings).to.deep.include({ lid: '88880006666@lid', pn: '15550006666@s.whatsapp.net' })
  })

  it('maps groups.update to the changed subject, desc and announce only', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.emit('groups.update', fixture('groups.json').groupsUpdate)
    await h.settle()
    expect(h.of('group.update').map((e) => [e.updates, e.author])).to.deep.equal([
      [{ subject: 'Renamed group' }, ALICE.pn],
      [{ announce: true }, ALICE.pn],
      [{ desc: 'New description' }, ALICE.pn],
    ])
  })

  it('invalidates the cached group metadata on group events', async () => {
    const h = setup()
    const socket = await openLinked(h)
    const metadata = fixture('groups.json').metadata
    socket.answers.groupMetadata = async () => metadata
    await h.driver.group(SESSION, { op: 'metadata', groupId: GROUP })
    expect(await socket.config.cachedGroupMetadata!(GROUP)).to.deep.equal(metadata)
    socket.emit('group-participants.update', fixture('groups.json').participantsAdd)
    await h.settle()
    expect(await socket.config.cachedGroupMetadata!(GROUP)).to.equal(undefined)
    await h.driver.group(SESSION, { op: 'metadata', groupId: GROUP })
    socket.emit('groups.update', [{ id: GROUP, subject: 'x' }])
    await h.settle()
    expect(await socket.config.cachedGroupMetadata!(GROUP)).to.equal(undefined)
    socket.emit('groups.upsert', [metadata])
    await h.settle()
    expect(await socket.config.cachedGroupMetadata!(GROUP)).to.deep.equal(metadata)
    await h.clock.tick(5 * 60_000)
    expect(await socket.config.cachedGroupMetadata!(GROUP), 'expired').to.equal(undefined)
  })

  it('emits contacts and chats from history sync, contact events and chat events, with PN ids', async () => {
    const h = setup()
    const socket = await openLinked(h)
    const fx = fixture('history-contacts.json')
    socket.emit('messaging-history.set', fx.history)
    socket.emit('contacts.upsert', fx.contactsUpsert)
    socket.emit('contacts.update', fx.contactsUpdate)
    socket.emit('chats.update', fx.chatsUpdate)
    await h.settle()
    expect(h.of('contacts.upsert').map((e) => e.contacts)).to.deep.equal([
      [
        { id: ALICE.pn, lid: ALICE.lid, name: 'Alice' },
        { id: BOB.pn, lid: BOB.lid, name: 'Bob' },
      ],
      [{ id: '15550004444@s.whatsapp.net', lid: '88880004444@lid', name: 'Carol' }],
      [{ id: ALICE.pn, lid: ALICE.lid, notify: 'Alice A.', verifiedName: null }],
    ])
    expect(h.of('chats.upsert').map((e) => e.chats)).to.deep.equal([
      [
        { id: ALICE.pn, name: 'Alice', unreadCount: 2, timestampSec: 1769850000 },
        { id: BOB.pn, unreadCount: 0, timestampSec: 1769849000, archived: true },
        { id: GROUP, name: 'Team', timestampSec: 1769848000 },
      ],
      // chats.update counts unread as increments: not passed on (the gateway counts messages).
      [
        { id: ALICE.pn, timestampSec: 1769850990 },
        { id: ALICE.pn, archived: true },
      ],
    ])
    expect(h.of('identity.mapping').flatMap((e) => e.mappings)).to.deep.include({ lid: '88880008888@lid', pn: '15550008888@s.whatsapp.net' })
  })

  it('records lid-mapping.update pairs once, persisted', async () => {
    const h = setup()
    const socket = await openLinked(h)
    const { lidMapping } = fixture('history-contacts.json')
    socket.emit('lid-mapping.update', lidMapping)
    socket.emit('lid-mapping.update', lidMapping)
    await h.settle()
    expect(h.of('identity.mapping')).to.deep.equal([{ sessionId: SESSION, mappings: [lidMapping] }])
    expect(h.auth.keys.get('sb-pn:15550009999@s.whatsapp.net')).to.equal(JSON.stringify('88880009999@lid'))
  })

  it('maps calls (offer, timeout) and skips intermediate statuses', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.emit('call', fixture('history-contacts.json').calls)
    await h.settle()
    expect(h.of('call')).to.deep.equal([
      { sessionId: SESSION, callId: 'CALL0001', from: ALICE.pn, status: 'offer', isVideo: true, isGroup: false, timestampSec: 1769850960 },
      { sessionId: SESSION, callId: 'CALL0001', from: ALICE.pn, status: 'timeout', isVideo: false, isGroup: false, timestampSec: 1769850990 },
    ])
  })

  it('a listener that throws does not stop event handling', async () => {
    const h = setup()
    const socket = await openLinked(h)
    h.driver.on('message.received', () => {
      throw new Error('listener bug')
    })
    socket.emit('messages.upsert', fixture('messages-inbound-pn.json').upsert)
    await h.settle()
    expect(h.of('message.received')).to.have.length(11)
  })
})
