/**
 * Delivery through the real global fetch: nock at the outbound HTTP edge, and one real receiver on
 * 127.0.0.1. The service runs on the test clock; only I/O is awaited.
 */
import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import nock from 'nock'
import { unixSeconds } from '../../src/kernel/clock.js'
import { T0 } from '../../src/testing/test-clock.js'
import type { WebhookDelivery, WebhookServiceOptions } from '../../src/webhooks/index.js'
import { DELIVERIES_COLLECTION, verifyWebhook, WebhookService } from '../../src/webhooks/index.js'
import { aMessageEvent, aReadyEvent, expectedSignature, makeHarness, OTHER_SECRET, recordsOf, SECRET } from './helpers.js'

/** A harness whose service uses the global fetch (the default) instead of the fake. */
function realFetchHarness(url: string, overrides: Partial<WebhookServiceOptions> = {}) {
  const h = makeHarness()
  h.targets.set('s1', { url, secret: SECRET })
  const service = h.restart({ fetch: undefined, ...overrides })
  return { ...h, service }
}

/** Yields to real I/O (no timer) until `done()` holds. */
async function eventually(h: { settle(): Promise<void> }, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await done()) return
    await h.settle()
    await new Promise((resolve) => setImmediate(resolve))
  }
  throw new Error('condition not reached')
}

const pending = async (h: { store: Parameters<typeof recordsOf>[0] }) =>
  (await recordsOf<WebhookDelivery>(h.store, DELIVERIES_COLLECTION)).map(([, r]) => r)

describe('WebhookService over the global fetch (nock)', () => {
  let services: WebhookService[] = []

  before(() => {
    nock.disableNetConnect()
    nock.enableNetConnect('127.0.0.1')
  })
  after(() => nock.enableNetConnect())
  afterEach(async () => {
    await Promise.all(services.map((s) => s.close()))
    services = []
    expect(nock.pendingMocks()).to.deep.equal([])
    nock.cleanAll()
  })

  function harness(url: string) {
    const h = realFetchHarness(url)
    services.push(h.service)
    return h
  }

  it('posts the signed JSON body to the URL as given, query secret included', async () => {
    const h = harness('https://hooks.example.com/wa?token=s3cr%2Bt')
    const event = aMessageEvent('s1', 1)
    let seen: { headers: Record<string, unknown>; body: string } | undefined
    nock('https://hooks.example.com')
      .post('/wa', JSON.stringify(event))
      .query({ token: 's3cr+t' })
      .reply(function (_uri, body) {
        seen = { headers: this.req.headers, body: typeof body === 'string' ? body : JSON.stringify(body) }
        return [204]
      })

    await h.service.enqueue(event)
    await eventually(h, async () => (await pending(h)).length === 0)

    const timestamp = String(unixSeconds(T0))
    expect(seen?.body).to.equal(JSON.stringify(event))
    expect(seen?.headers).to.include({
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1',
      'webhook-id': 'msg-1',
      'webhook-timestamp': timestamp,
      'webhook-signature': expectedSignature(SECRET, 'msg-1', timestamp, JSON.stringify(event)),
    })
  })

  it('retries a 5xx, then delivers with the same webhook-id', async () => {
    const h = harness('https://hooks.example.com/wa')
    const idsSeen: string[] = []
    nock('https://hooks.example.com')
      .post('/wa')
      .reply(function () {
        idsSeen.push(String(this.req.headers['webhook-id']))
        return [503, 'busy']
      })
      .post('/wa')
      .reply(function () {
        idsSeen.push(String(this.req.headers['webhook-id']))
        return [200, { ok: true }]
      })

    await h.service.enqueue(aReadyEvent('s1'))
    await eventually(h, async () => (await pending(h))[0]?.attempts === 1)
    expect((await pending(h))[0]).to.include({ lastError: 'HTTP 503', nextAttemptAt: T0 + 750 })
    await h.clock.tick(750)
    await eventually(h, async () => (await pending(h)).length === 0)
    expect(idsSeen).to.deep.equal(['msg-1', 'msg-1'])
  })

  it('retries a network error', async () => {
    const h = harness('https://hooks.example.com/wa')
    nock('https://hooks.example.com').post('/wa').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
    await h.service.enqueue(aReadyEvent('s1'))
    await eventually(h, async () => (await pending(h))[0]?.attempts === 1)
    expect((await pending(h))[0]?.lastError).to.equal('socket hang up (ECONNRESET)')
  })

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const h = harness('https://hooks.example.com/wa')
    nock('https://hooks.example.com').post('/wa').reply(302, '', { Location: 'https://elsewhere.example.com/' })
    await h.service.enqueue(aReadyEvent('s1'))
    await eventually(h, async () => (await pending(h))[0]?.attempts === 1)
    expect((await pending(h))[0]?.lastError).to.equal('HTTP 302')
  })
})

describe('WebhookService with a real receiver on 127.0.0.1', () => {
  let server: Server
  let base: string
  let handler: (req: IncomingMessage, body: string, res: ServerResponse) => void
  let service: WebhookService | undefined

  beforeEach(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterEach(async () => {
    await service?.close()
    service = undefined
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('delivers verifiable events, retrying a refusal, each event accepted once', async () => {
    const h = realFetchHarness(`${base}/hooks/wa?key=abc`)
    service = h.service
    const accepted: string[] = []
    let refuseFirst = true
    handler = (req, body, res) => {
      const verified = verifyWebhook(SECRET, req.headers, body, { nowSec: unixSeconds(h.clock.now()) })
      const ok = req.method === 'POST' && req.url === '/hooks/wa?key=abc' && verified.ok
      if (!ok || refuseFirst) {
        refuseFirst = false
        res.writeHead(ok ? 500 : 400).end()
        return
      }
      expect(req.headers['webhook-signature']).to.equal(
        expectedSignature(SECRET, String(req.headers['webhook-id']), String(req.headers['webhook-timestamp']), body),
      )
      accepted.push(`${req.headers['webhook-id']} ${JSON.parse(body).message.id}`)
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    }

    await service.enqueue(aMessageEvent('s1', 1))
    await service.enqueue(aMessageEvent('s1', 2))
    await eventually(h, async () => (await pending(h))[0]?.attempts === 1)
    expect((await pending(h))[0]?.lastError).to.equal('HTTP 500')
    await h.clock.tick(750)
    await eventually(h, async () => (await pending(h)).length === 0)
    expect(accepted).to.deep.equal(['msg-1 MSG1', 'msg-2 MSG2'])
  })

  it('keeps a delivery while the receiver is down (connection refused) and delivers it once it is up', async () => {
    const port = (server.address() as AddressInfo).port
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    const h = realFetchHarness(`${base}/hook`)
    service = h.service
    const accepted: string[] = []
    handler = (req, _body, res) => {
      accepted.push(String(req.headers['webhook-id']))
      res.writeHead(200).end()
    }
    await service.enqueue(aReadyEvent('s1'))
    await eventually(h, async () => (await pending(h))[0]?.attempts === 1)
    expect((await pending(h))[0]?.lastError).to.equal('fetch failed (ECONNREFUSED)')
    await h.clock.tick(750)
    await eventually(h, async () => (await pending(h))[0]?.attempts === 2)

    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    await h.clock.tick(1500)
    await eventually(h, async () => (await pending(h)).length === 0)
    expect(accepted).to.deep.equal(['msg-1'])
  })

  it('times out a receiver that never answers after 5 s of clock time', async () => {
    const h = realFetchHarness(`${base}/slow`)
    service = h.service
    let received = false
    handler = () => {
      received = true
    }
    await service.enqueue(aReadyEvent('s1'))
    await eventually(h, () => received)
    expect(service.stats().inFlight).to.equal(1)
    await h.clock.tick(5000)
    await eventually(h, async () => (await pending(h))[0]?.attempts === 1)
    expect((await pending(h))[0]?.lastError).to.equal('timeout after 5000 ms')
  })

  it('signs with the secret of the session', async () => {
    const h = realFetchHarness(`${base}/hook`)
    h.targets.set('s2', { url: `${base}/hook`, secret: OTHER_SECRET })
    service = h.service
    const results: boolean[] = []
    handler = (req, body, res) => {
      results.push(verifyWebhook(OTHER_SECRET, req.headers, body, { nowSec: unixSeconds(h.clock.now()) }).ok)
      res.writeHead(200).end()
    }
    await service.enqueue(aReadyEvent('s2'))
    await eventually(h, () => results.length === 1)
    expect(results).to.deep.equal([true])
  })
})
