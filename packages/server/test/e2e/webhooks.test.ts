import { expect } from 'chai'
import { createAccount, linkedSession, type TestSession } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'
import { hasValidSignature } from './support/signature.js'
import { WebhookReceiver } from './support/webhook-receiver.js'
import { pause, waitFor } from './support/wait.js'

const ME = '15550006001'
const BOB = '15550006002'

describe('e2e: webhooks', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e
  let hooks: WebhookReceiver
  let session: TestSession

  beforeEach(async () => {
    e2e = await startE2e()
    hooks = await WebhookReceiver.start()
    await createAccount(e2e, BOB, 'Bob')
  })

  afterEach(async () => {
    await e2e.close()
    await hooks.close()
  })

  const link = async (path?: string): Promise<void> => {
    session = await linkedSession(e2e, ME, { webhookUrl: hooks.url(path) })
    await waitFor(() => hooks.names(session.id).includes('ready'), { clock: e2e.clock })
  }
  const fromBob = async (text: string): Promise<string> =>
    (await e2e.admin.post(`/sandbox/accounts/${BOB}/messages`, { to: ME, text })).body.messageId as string

  it('signs every delivery after Standard Webhooks and posts to the URL as given (query secret kept)', async () => {
    await link('/hook?token=s3cret')
    await fromBob('signed')
    await waitFor(() => hooks.names(session.id).includes('message'), { clock: e2e.clock })
    const requests = hooks.delivered()
    expect(requests).to.have.length(4)
    const ids = new Set<string>()
    for (const request of requests) {
      expect(request.method).to.equal('POST')
      expect(request.path).to.equal('/hook?token=s3cret')
      expect(request.headers['content-type']).to.match(/^application\/json/)
      expect(hasValidSignature(request, session.webhookSecret), request.raw).to.equal(true)
      expect(hasValidSignature(request, `whsec_${Buffer.from('another key').toString('base64')}`)).to.equal(false)
      expect(Number(request.headers['webhook-timestamp'])).to.be.closeTo(Math.floor(e2e.clock.now() / 1000), 5)
      expect(request.body.sessionId).to.equal(session.id)
      ids.add(String(request.headers['webhook-id']))
    }
    expect(ids.size).to.equal(4)
    const tampered = { ...requests[0]!, raw: requests[0]!.raw.replace('qr_ready', 'ready') }
    expect(hasValidSignature(tampered, session.webhookSecret)).to.equal(false)
  })

  it('retries a delivery answered 500 with the same webhook-id and a valid signature, then the rest in order', async () => {
    await link()
    hooks.failNext(2, 500)
    const first = await fromBob('first')
    const second = await fromBob('second')
    await waitFor(() => hooks.names(session.id).filter((n) => n === 'message').length === 2, { clock: e2e.clock })
    const attempts = hooks.requests.filter((r) => r.body.event === 'message' && r.body.message.id === first)
    expect(attempts.map((a) => a.answered)).to.deep.equal([500, 500, 200])
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).to.equal(1)
    for (const attempt of attempts) expect(hasValidSignature(attempt, session.webhookSecret)).to.equal(true)
    expect(attempts.map((a) => a.raw)).to.deep.equal(Array(3).fill(attempts[0]!.raw))
    const messages = hooks.events(session.id).filter((e) => e.event === 'message')
    expect(messages.map((e) => e.message.id)).to.deep.equal([first, second])
  })

  it('loses nothing while the receiver is down and delivers every event in order once it is back', async () => {
    await link()
    const before = hooks.names(session.id).length
    await hooks.down()
    const sent: string[] = []
    for (let i = 1; i <= 5; i++) sent.push(await fromBob(`down ${i}`))
    await e2e.admin.post(`/sandbox/sessions/${session.id}/drop`)
    await waitFor(async () => (await e2e.admin.get(`/sessions/${session.id}/status`)).body.session.state === 'ready', {
      clock: e2e.clock,
      tickMs: 50,
    })
    // Several attempts failed meanwhile (refused connections), and nothing arrived.
    await waitFor(async () => (await e2e.server.gateway.stats()).webhooks.pending === 7, { clock: e2e.clock })
    expect(hooks.requests).to.have.length(before)

    await hooks.up()
    await waitFor(() => hooks.names(session.id).length === before + 7, { clock: e2e.clock, tickMs: 50 })
    const after = hooks.events(session.id).slice(before)
    expect(after.map((e) => e.event)).to.deep.equal([...Array<string>(5).fill('message'), 'disconnected', 'ready'])
    expect(after.slice(0, 5).map((e) => e.message.id)).to.deep.equal(sent)
    expect(after.slice(0, 5).map((e) => e.message.body)).to.deep.equal(['down 1', 'down 2', 'down 3', 'down 4', 'down 5'])
    // The outbox empties once the last answer is in.
    await waitFor(async () => (await e2e.server.gateway.stats()).webhooks.pending === 0, { clock: e2e.clock })
  })

  it('PUT /sessions/{id}/webhook moves the events to a new URL, and null stops them', async () => {
    await link()
    const next = await WebhookReceiver.start()
    try {
      const moved = await session.api.put(`/sessions/${session.id}/webhook`, { url: next.url('/next') })
      expect(moved.body).to.deep.equal({ success: true, message: 'Webhook updated', webhookUrl: next.url('/next') })
      const status = await session.api.get(`/sessions/${session.id}/status`)
      expect(status.body.session.webhookUrl).to.equal(next.url('/next'))
      const id = await fromBob('to the new receiver')
      const event = await next.waitForEvent((e) => e.event === 'message', { clock: e2e.clock })
      expect(event.message.id).to.equal(id)
      expect(hasValidSignature(next.delivered()[0]!, session.webhookSecret)).to.equal(true)
      expect(hooks.names(session.id)).to.not.include('message')

      const bad = await session.api.put(`/sessions/${session.id}/webhook`, { url: 'ftp://example.com/x' })
      expect(bad.status).to.equal(400)
      expect(bad.body.error).to.match(/^url must be an? .*http/)

      const removed = await session.api.put(`/sessions/${session.id}/webhook`, { url: null })
      expect(removed.body).to.deep.equal({ success: true, message: 'Webhook removed', webhookUrl: null })
      const emitted: string[] = []
      const off = e2e.server.gateway.on('message', (e) => emitted.push(e.message.id))
      const last = await fromBob('nobody listens')
      await waitFor(() => emitted.includes(last), { clock: e2e.clock })
      off()
      await e2e.clock.tick(1000)
      await pause(50)
      expect(next.delivered()).to.have.length(1)
      expect(hooks.names(session.id)).to.not.include('message')
    } finally {
      await next.close()
    }
  })
})
