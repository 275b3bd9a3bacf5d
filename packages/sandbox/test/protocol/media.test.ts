import { Agent as HttpsAgent } from 'node:https'
import { expect } from 'chai'
import { Agent } from 'undici'
import { downloadMediaMessage } from '@whiskeysockets/baileys'
import { startWireSandbox, type WireSandbox } from '../../src/doors/wire/wire-sandbox.js'
import { applyTrustAnchor, restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'
const jid = (p: string) => `${p}@s.whatsapp.net`
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

describe('protocol door: media over the loopback HTTPS host', function () {
  this.timeout(20_000)
  let w: WireSandbox
  let alice: TestClient
  let dispatcher: Agent

  beforeEach(async () => {
    w = await startWireSandbox(process.env.WIRE_DEBUG ? { logger: (await import('pino')).default({ level: process.env.WIRE_DEBUG === 'trace' ? 'trace' : 'debug' }, (await import('pino')).default.destination(2)) as never } : {})
    applyTrustAnchor(w.rootPublicKey)
    await w.sandbox.accounts.create({ phoneNumber: ALICE, name: 'Alice' })
    await w.sandbox.accounts.create({ phoneNumber: BOB, name: 'Bob' })
    // What this mode's clients trust for media, and nothing else.
    dispatcher = new Agent({ connect: { ca: w.mediaCertificate } })
    alice = new TestClient(w.url, undefined, undefined, {
      fetchAgent: new HttpsAgent({ ca: w.mediaCertificate }),
      options: { dispatcher } as RequestInit,
    })
    await w.sandbox.scan(ALICE, await alice.qr())
    await alice.opened()
  })

  afterEach(async () => {
    await alice.stop()
    await w.close()
    await dispatcher.close()
    restoreTrustAnchor()
  })

  it('uploads an image a client sends; the world and another client get the same bytes', async () => {
    const bob = new TestClient(w.url, undefined, undefined, {
      fetchAgent: new HttpsAgent({ ca: w.mediaCertificate }),
      options: { dispatcher } as RequestInit,
    })
    try {
      await w.sandbox.scan(BOB, await bob.qr())
      await bob.opened()
      const sent = await alice.sock.sendMessage(jid(BOB), { image: PNG, mimetype: 'image/png', caption: 'a picture' })
      const got = await until(async () => (await w.sandbox.inbox(BOB)).find((m) => m.id === sent!.key.id))
      expect(got).to.include({ type: 'imageMessage', mimetype: 'image/png', caption: 'a picture' })
      const m = await bob.waitFor((ev) => {
        for (const e of ev) if (e.event === 'messages.upsert') for (const x of e.data.messages) if (x.key.id === sent!.key.id) return x
        return undefined
      }, 'image at bob')
      expect(m.message?.imageMessage?.caption).to.equal('a picture')
      const data = await downloadMediaMessage(m, 'buffer', { options: { dispatcher } as RequestInit })
      expect(data.equals(PNG)).to.equal(true)
    } finally {
      await bob.stop()
    }
  })

  it('sends world media to the client, which downloads and decrypts it', async () => {
    const { messageId } = await w.sandbox.sendAs(BOB, {
      to: ALICE,
      content: { type: 'document', media: { data: Buffer.from('hello file'), mimetype: 'text/plain', filename: 'hello.txt' }, caption: 'see attached' },
    })
    const m = await alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const x of e.data.messages) if (x.key.id === messageId) return x
      return undefined
    }, 'document')
    expect(m.message?.documentMessage?.fileName).to.equal('hello.txt')
    expect(m.message?.documentMessage?.caption).to.equal('see attached')
    const data = await downloadMediaMessage(m, 'buffer', { options: { dispatcher } as RequestInit })
    expect(data.toString()).to.equal('hello file')
  })
})

async function until<T>(find: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}
