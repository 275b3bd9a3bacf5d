/**
 * `SWITCHBOARD_NETWORK=sandbox-wire` over REST: the production WhatsApp driver (real Baileys)
 * links, sends, receives, gets receipts and comes back after a restart with no new scan, through
 * the sandbox's WhatsApp-protocol emulator, while the sandbox control API plays the phones.
 * Real time: Baileys runs its own timers, so these tests wait (polling) instead of ticking.
 */
import { expect } from 'chai'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type RunningServer } from '../../src/start-server.js'
import type { Gateway } from '@switchboard/core'
import { testConfig } from '../helpers/server-config.js'
import { Api } from './support/api.js'
import { ADMIN_KEY } from './support/harness.js'
import { waitFor } from './support/wait.js'
import { WebhookReceiver } from './support/webhook-receiver.js'
import '../../../sandbox/test/protocol/quiet-libsignal.js'
// Baileys leaves 30-60 s timers behind when a socket ends; unref them so mocha exits at once.
import '../../../sandbox/test/protocol/baileys-timers.js'

const SHOP = '15550001111'
const ALICE = '15550002222'

async function start(dataDir: string): Promise<{ server: RunningServer<Gateway>; api: Api }> {
  const server = await startServer(
    testConfig({
      SWITCHBOARD_NETWORK: 'sandbox-wire',
      SWITCHBOARD_DATA_DIR: dataDir,
      SWITCHBOARD_STORE: '',
      SWITCHBOARD_ADMIN_KEY: ADMIN_KEY,
      SWITCHBOARD_RATE_LIMIT_GENERAL: '100000',
      SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '20',
      SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: '200',
    }),
  )
  return { server, api: new Api(server.url, ADMIN_KEY) }
}

describe('e2e: sandbox-wire (real Baileys through the protocol emulator)', function () {
  this.timeout(60_000)
  let dataDir: string
  let server: RunningServer<Gateway> | undefined
  let receiver: WebhookReceiver

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-wire-'))
    receiver = await WebhookReceiver.start()
  })
  afterEach(async () => {
    await server?.close()
    await receiver.close()
  })

  it('links by QR, sends and receives with receipts, and comes back after a restart with no scan', async () => {
    let api: Api
    ;({ server, api } = await start(dataDir))
    expect((await api.post('/sandbox/accounts', { phoneNumber: SHOP, name: 'Shop' })).status).to.equal(201)
    expect((await api.post('/sandbox/accounts', { phoneNumber: ALICE, name: 'Alice' })).status).to.equal(201)
    const created = await api.post('/sessions/create', { name: 'wire', webhookUrl: receiver.url() })
    expect(created.status).to.equal(201)
    const id: string = created.body.session.id
    const qr = await waitFor(async () => {
      const r = await api.get(`/sessions/${id}/qr`)
      return r.status === 200 && (r.body.qr as string)
    }, { what: 'a QR', timeoutMs: 20_000 })
    // The real thing: Baileys' own payload (ref, noise key, identity key, ADV secret).
    expect(qr).to.match(/^https:\/\/wa\.me\/settings\/linked_devices#/)
    const scan = await api.post(`/sandbox/accounts/${SHOP}/scan`, { qr })
    expect(scan.body).to.deep.equal({ success: true, sessionId: id })
    await waitFor(async () => (await api.get(`/sessions/${id}/status`)).body.session.state === 'ready', { what: 'ready', timeoutMs: 20_000 })

    const sent = await api.post(`/sessions/${id}/send`, { to: ALICE, text: 'Hello over the wire' })
    expect(sent.status).to.equal(200)
    const messageId: string = sent.body.messageId
    const inbox = await waitFor(async () => {
      const r = await api.get(`/sandbox/accounts/${ALICE}/messages`)
      return r.body.messages.find((m: { id: string }) => m.id === messageId)
    }, { what: 'the message in the inbox' })
    expect(inbox).to.include({ text: 'Hello over the wire', from: `${SHOP}@s.whatsapp.net` })

    await api.post(`/sandbox/accounts/${ALICE}/read`, { chatId: `${SHOP}@s.whatsapp.net`, messageIds: [messageId] })
    await api.post(`/sandbox/accounts/${ALICE}/messages`, { to: SHOP, text: 'Hi back' })
    await waitFor(() => {
      const events = receiver.events()
      const read = events.some((e) => e.event === 'message_status' && e.statusUpdate.messageId === messageId && e.statusUpdate.status === 'read')
      const reply = events.some((e) => e.event === 'message' && e.message.body === 'Hi back')
      return read && reply
    }, { what: 'the read receipt and the reply webhooks', timeoutMs: 20_000 })
    const names = receiver.events().map((e) => e.event)
    expect(names.slice(0, 3)).to.deep.equal(['qr_ready', 'authenticated', 'ready'])
    const reply = receiver.events().find((e) => e.event === 'message')!
    expect(reply.message).to.include({ from: `${ALICE}@s.whatsapp.net`, to: `${SHOP}@s.whatsapp.net`, fromMe: false, type: 'conversation' })

    // Media goes through the emulator's self-signed HTTPS host, trusted by this mode only. (The
    // REST media endpoints come with a later release; the gateway's send path is the same.)
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
    const image = await server.gateway.messaging.send(id, ALICE, { type: 'image', media: { data: png, mimetype: 'image/png' }, caption: 'a pixel' })
    await waitFor(async () => {
      const r = await api.get(`/sandbox/accounts/${ALICE}/messages`)
      return r.body.messages.some((m: { id: string; type: string; caption?: string }) => m.id === image.messageId && m.type === 'imageMessage' && m.caption === 'a pixel')
    }, { what: 'the image in the inbox', timeoutMs: 20_000 })

    // A restart over the same data: the stored Signal credentials log in again, no QR.
    await server.close()
    ;({ server, api } = await start(dataDir))
    await waitFor(async () => (await api.get(`/sessions/${id}/status`)).body.session.state === 'ready', { what: 'ready after restart', timeoutMs: 20_000 })
    const again = await api.post(`/sessions/${id}/send`, { to: ALICE, text: 'Still here' })
    expect(again.status).to.equal(200)
    await waitFor(async () => {
      const r = await api.get(`/sandbox/accounts/${ALICE}/messages`)
      return r.body.messages.some((m: { text?: string }) => m.text === 'Still here')
    }, { what: 'the message after the restart' })
  })

  it('links by pairing code and logs out when the phone unlinks the device', async () => {
    let api: Api
    ;({ server, api } = await start(dataDir))
    await api.post('/sandbox/accounts', { phoneNumber: SHOP })
    const id: string = (await api.post('/sessions/create', { name: 'wire-code' })).body.session.id
    const code = await waitFor(async () => {
      const r = await api.post(`/sessions/${id}/auth/request-code`, { phoneNumber: `+${SHOP}` })
      return r.status === 200 && (r.body.code as string)
    }, { what: 'a pairing code', timeoutMs: 20_000 })
    expect(code).to.match(/^[0-9A-Z]{8}$/)
    expect((await api.post(`/sandbox/accounts/${SHOP}/link-code`, { code })).body).to.deep.equal({ success: true, sessionId: id })
    await waitFor(async () => (await api.get(`/sessions/${id}/status`)).body.session.state === 'ready', { what: 'ready', timeoutMs: 20_000 })
    await api.post(`/sandbox/accounts/${SHOP}/unlink`, { sessionId: id })
    await waitFor(async () => (await api.get(`/sessions/${id}/status`)).body.session.state === 'logged_out', { what: 'logged_out', timeoutMs: 20_000 })
  })
})
