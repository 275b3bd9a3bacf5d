import { expect } from 'chai'
import { startWireSandbox, type WireSandbox } from '../../src/doors/wire/wire-sandbox.js'
import { applyTrustAnchor, restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'
const BOB_JID = `${BOB}@s.whatsapp.net`
const ALICE_JID = `${ALICE}@s.whatsapp.net`

describe('protocol door on the sandbox world', function () {
  this.timeout(20_000)
  let w: WireSandbox
  const clients: TestClient[] = []

  beforeEach(async () => {
    w = await startWireSandbox(process.env.WIRE_DEBUG ? { logger: (await import('pino')).default({ level: 'debug' }, (await import('pino')).default.destination(2)) as never } : {})
    applyTrustAnchor(w.rootPublicKey)
    await w.sandbox.accounts.create({ phoneNumber: ALICE, name: 'Alice' })
    await w.sandbox.accounts.create({ phoneNumber: BOB, name: 'Bob' })
  })

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop()
    await w.close()
    restoreTrustAnchor()
  })

  const link = async (): Promise<{ client: TestClient; sessionId: string }> => {
    const client = new TestClient(w.url)
    clients.push(client)
    const { sessionId } = await w.sandbox.scan(ALICE, await client.qr())
    await client.opened()
    return { client, sessionId }
  }

  it('links a Baileys client through the control surface, as a session of the world', async () => {
    const { client, sessionId } = await link()
    expect(sessionId).to.equal(`wire-${ALICE}-1`)
    expect(client.sock.user?.id).to.equal(`${ALICE}:1@s.whatsapp.net`)
    const links = await w.sandbox.links(ALICE)
    expect(links.map((l) => [l.sessionId, l.deviceId, l.method, l.online])).to.deep.equal([[sessionId, 1, 'qr', true]])
    expect((await w.sandbox.accounts.get(ALICE)).sessions).to.deep.equal([sessionId])
  })

  it('text both ways: the inbox shows the id the client chose; sendAs reaches the client; read receipts', async () => {
    const { client } = await link()
    const sent = await client.sock.sendMessage(BOB_JID, { text: 'hello bob' })
    const bobInbox = await waitUntil(async () => (await w.sandbox.inbox(BOB)).find((m) => m.id === sent!.key.id))
    expect(bobInbox).to.include({ from: ALICE_JID, text: 'hello bob', status: 'delivered' })
    await w.sandbox.read(BOB, ALICE_JID, [sent!.key.id!])
    await client.waitFor((ev) => {
      for (const e of ev) {
        if (e.event === 'messages.update') for (const u of e.data) if (u.key.id === sent!.key.id && u.update.status === 4) return true
        if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === sent!.key.id && m.status === 4) return true
      }
      return undefined
    }, 'read')
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, text: 'hi alice', quotedMessageId: sent!.key.id! })
    const got = await client.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === messageId) return m
      return undefined
    }, 'sendAs')
    expect(got.message?.extendedTextMessage?.text).to.equal('hi alice')
    expect(got.message?.extendedTextMessage?.contextInfo?.stanzaId).to.equal(sent!.key.id)
    expect(got.pushName).to.equal('Bob')
  })

  it('reactions, edits and deletes from the client reach the world', async () => {
    const { client } = await link()
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, text: 'react' })
    const original = await client.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === messageId) return m
      return undefined
    }, 'message')
    await client.sock.sendMessage(BOB_JID, { react: { text: '🎉', key: original.key } })
    const mine = await client.sock.sendMessage(BOB_JID, { text: 'tpyo' })
    const mineId = mine!.key.id!
    await client.sock.sendMessage(BOB_JID, { text: 'typo', edit: { ...mine!.key } })
    const doomed = await client.sock.sendMessage(BOB_JID, { text: 'oops' })
    // Baileys rewrites the key object it is given for a delete: keep the id first.
    const doomedId = doomed!.key.id!
    await client.sock.sendMessage(BOB_JID, { delete: { ...doomed!.key } })
    await waitUntil(async () => {
      const inbox = await w.sandbox.inbox(BOB)
      return inbox.find((m) => m.id === mineId)?.edited && inbox.find((m) => m.id === doomedId)?.revoked ? true : undefined
    })
    expect((await w.sandbox.inbox(BOB)).find((m) => m.id === mineId)?.text).to.equal('typo')
    const reacted = await waitUntil(async () => (await w.sandbox.inbox(ALICE)).find((m) => m.id === messageId && m.reactions?.length))
    expect(reacted.reactions).to.deep.equal([{ from: ALICE_JID, emoji: '🎉' }])
  })

  it('pins and unpins a message for everyone', async () => {
    const { client } = await link()
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, text: 'pin me' })
    const original = await client.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === messageId) return m
      return undefined
    }, 'message')
    await client.sock.sendMessage(BOB_JID, { pin: { ...original.key }, type: 1, time: 86400 })
    await waitUntil(async () => ((await w.sandbox.inbox(ALICE)).find((m) => m.id === messageId)?.pinned ? true : undefined))
    await client.sock.sendMessage(BOB_JID, { pin: { ...original.key }, type: 2 })
    await waitUntil(async () => ((await w.sandbox.inbox(ALICE)).find((m) => m.id === messageId)?.pinned ? undefined : true))
  })

  it('contact cards, locations and polls both ways', async () => {
    const { client } = await link()
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Carol\nTEL;type=CELL;waid=15550003333:+1 555 000 3333\nEND:VCARD'
    const card = await client.sock.sendMessage(BOB_JID, { contacts: { displayName: 'Carol', contacts: [{ vcard }] } })
    const place = await client.sock.sendMessage(BOB_JID, { location: { degreesLatitude: 48.85, degreesLongitude: 2.35, name: 'Paris' } })
    const poll = await client.sock.sendMessage(BOB_JID, { poll: { name: 'Lunch?', values: ['Yes', 'No'], selectableCount: 1 } })
    const inbox = await waitUntil(async () => {
      const all = await w.sandbox.inbox(BOB)
      return [card, place, poll].every((m) => all.some((x) => x.id === m!.key.id)) ? all : undefined
    })
    const byId = (id: string | null | undefined) => inbox.find((m) => m.id === id)!
    expect(byId(card!.key.id).contact).to.deep.equal({ name: 'Carol', phone: '15550003333', vcard })
    expect(byId(place!.key.id).location).to.deep.equal({ latitude: 48.85, longitude: 2.35, description: 'Paris' })
    expect(byId(poll!.key.id).poll).to.deep.equal({ name: 'Lunch?', options: ['Yes', 'No'], selectableCount: 1 })
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, content: { type: 'location', latitude: 1.5, longitude: -2.5, description: 'Here' } })
    const got = await client.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === messageId) return m
      return undefined
    }, 'location')
    expect(got.message?.locationMessage).to.include({ degreesLatitude: 1.5, degreesLongitude: -2.5, name: 'Here' })
  })

  it('reactions from the account reach the client', async () => {
    const { client } = await link()
    const mine = await client.sock.sendMessage(BOB_JID, { text: 'like this' })
    await waitUntil(async () => (await w.sandbox.inbox(BOB)).find((m) => m.id === mine!.key.id))
    await w.sandbox.react(BOB, { chatId: ALICE_JID, messageId: mine!.key.id!, emoji: '👍' })
    const r = await client.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.reaction') for (const x of e.data) if (x.key.id === mine!.key.id) return x
      return undefined
    }, 'reaction')
    expect(r.reaction.text).to.equal('👍')
  })

  it('unlinking from the phone logs the client out (401)', async () => {
    const { client, sessionId } = await link()
    await w.sandbox.unlink(ALICE, sessionId)
    await client.closedWith(401)
    expect(await w.sandbox.links(ALICE)).to.deep.equal([])
  })

  it('a drop cuts the socket; the client reconnects and the session is online again', async () => {
    const { client, sessionId } = await link()
    await w.sandbox.drop(sessionId)
    await client.opened(2)
    expect(client.closes).to.deep.equal([515, 428])
    const links = await w.sandbox.links(ALICE)
    expect(links[0]?.online).to.equal(true)
  })

  it('links by a pairing code typed on the phone', async () => {
    const client = new TestClient(w.url)
    clients.push(client)
    await client.qr()
    const code = await client.sock.requestPairingCode(ALICE)
    const { sessionId } = await w.sandbox.enterCode(ALICE, code)
    await client.opened()
    const links = await w.sandbox.links(ALICE)
    expect(links.map((l) => [l.sessionId, l.method])).to.deep.equal([[sessionId, 'code']])
  })
})

async function waitUntil<T>(find: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}
