import { expect } from 'chai'
import { unixSeconds } from '../../src/kernel/clock.js'
import { T0 } from '../../src/testing/test-clock.js'
import type { WebhookDeadLetter, WebhookDelivery } from '../../src/webhooks/index.js'
import {
  DEAD_LETTERS_COLLECTION,
  DELIVERIES_COLLECTION,
  verifyWebhook,
  WebhookService,
} from '../../src/webhooks/index.js'
import { createMemoryStore } from '../support/memory-store.js'
import {
  aMessageEvent,
  aReadyEvent,
  expectedSignature,
  hang,
  HOOK_URL,
  HOUR,
  makeHarness,
  MINUTE,
  networkError,
  recordsOf,
  SECRET,
  sequence,
  status,
} from './helpers.js'

const pendingOf = (h: { store: Parameters<typeof recordsOf>[0] }) => recordsOf<WebhookDelivery>(h.store, DELIVERIES_COLLECTION)
const deadOf = (h: { store: Parameters<typeof recordsOf>[0] }) => recordsOf<WebhookDeadLetter>(h.store, DEAD_LETTERS_COLLECTION)

describe('WebhookService: delivery', () => {
  it('posts the event once, signed, with the Standard Webhooks headers', async () => {
    const h = makeHarness()
    const event = aReadyEvent('s1')
    const record = await h.service.enqueue(event)
    await h.settle()

    expect(record).to.include({ id: 'msg-1', sessionId: 's1', event: 'ready', attempts: 0, createdAt: T0, nextAttemptAt: T0, lastError: null })
    expect(h.http.calls).to.have.length(1)
    const call = h.http.calls[0]!
    const timestamp = String(unixSeconds(T0))
    expect(call.url).to.equal(HOOK_URL)
    expect(call.body).to.equal(JSON.stringify(event))
    expect(call.headers).to.deep.equal({
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1',
      'webhook-id': 'msg-1',
      'webhook-timestamp': timestamp,
      'webhook-signature': expectedSignature(SECRET, 'msg-1', timestamp, call.body),
    })
    expect(verifyWebhook(SECRET, call.headers, call.body, { nowSec: unixSeconds(T0) }).ok).to.equal(true)
    expect(await pendingOf(h)).to.deep.equal([])
    expect(h.service.stats()).to.deep.equal({ pending: 0, deadLettered: 0, inFlight: 0 })
  })

  it('stores the delivery before the first attempt', async () => {
    const h = makeHarness()
    let storedAtAttempt: WebhookDelivery | undefined
    h.http.respond(async () => {
      storedAtAttempt = await h.store.collection<WebhookDelivery>(DELIVERIES_COLLECTION).get('s1:msg-1')
      return { status: 200 }
    })
    await h.service.enqueue(aMessageEvent('s1', 1))
    await h.settle()
    expect(storedAtAttempt).to.deep.include({ id: 'msg-1', body: JSON.stringify(aMessageEvent('s1', 1)), attempts: 0 })
  })

  for (const code of [200, 201, 202, 204, 299]) {
    it(`treats HTTP ${code} as delivered`, async () => {
      const h = makeHarness()
      h.http.respond(status(code))
      await h.service.enqueue(aReadyEvent('s1'))
      await h.settle()
      expect(await pendingOf(h)).to.deep.equal([])
    })
  }

  for (const code of [301, 302, 304, 400, 401, 404, 410, 429, 500, 502, 503]) {
    it(`retries after HTTP ${code}`, async () => {
      const h = makeHarness()
      h.http.respond(status(code))
      await h.service.enqueue(aReadyEvent('s1'))
      await h.settle()
      const [[, record]] = (await pendingOf(h)) as [[string, WebhookDelivery]]
      expect(record).to.include({ attempts: 1, lastError: `HTTP ${code}`, nextAttemptAt: T0 + 750 })
    })
  }

  it('retries after a network error, recording its cause', async () => {
    const h = makeHarness()
    h.http.respond(networkError)
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    const [[, record]] = (await pendingOf(h)) as [[string, WebhookDelivery]]
    expect(record).to.include({ attempts: 1, lastError: 'fetch failed (ECONNREFUSED)' })
  })

  it('keeps the webhook-id and body across retries while the timestamp and signature follow the attempt', async () => {
    const h = makeHarness()
    h.http.respond(sequence(status(500), status(503), status(200)))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    await h.clock.tick(750)
    await h.clock.tick(1500)
    expect(h.http.calls).to.have.length(3)
    const [first, , third] = h.http.calls as [(typeof h.http.calls)[0], unknown, (typeof h.http.calls)[0]]
    expect(third.headers['webhook-id']).to.equal(first.headers['webhook-id'])
    expect(third.body).to.equal(first.body)
    expect(Number(third.headers['webhook-timestamp'])).to.equal(unixSeconds(T0 + 2250))
    expect(third.headers['webhook-timestamp']).to.not.equal(first.headers['webhook-timestamp'])
    expect(third.headers['webhook-signature']).to.equal(
      expectedSignature(SECRET, 'msg-1', third.headers['webhook-timestamp']!, third.body),
    )
    expect(await pendingOf(h)).to.deep.equal([])
  })
})

describe('WebhookService: retry schedule', () => {
  it('waits min(max, base·2^(n-1)) with equal jitter between attempts, never earlier', async () => {
    const h = makeHarness()
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    // random() = 0.5 puts each delay at 3/4 of its ceiling.
    const expected = [750, 1500, 3000, 6000, 12_000, 24_000, 48_000]
    for (const [i, delay] of expected.entries()) {
      await h.clock.tick(delay - 1)
      expect(h.http.calls, `before attempt ${i + 2}`).to.have.length(i + 1)
      await h.clock.tick(1)
      expect(h.http.calls, `attempt ${i + 2}`).to.have.length(i + 2)
    }
    const [[, record]] = (await pendingOf(h)) as [[string, WebhookDelivery]]
    expect(record).to.include({ attempts: 8, nextAttemptAt: h.clock.now() + 96_000 })
  })

  it('caps one delay at retryMaxMs', async () => {
    const h = makeHarness({ retryBaseMs: 1000, retryMaxMs: 10_000, random: () => 0.999 })
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.clock.tick(2 * MINUTE)
    const gaps = h.http.calls.slice(1).map((c, i) => c.at - h.http.calls[i]!.at)
    expect(gaps.slice(0, 6)).to.deep.equal([999, 1999, 3998, 7996, 9995, 9995])
  })

  it('uses the injected random source for the jitter', async () => {
    const h = makeHarness({ random: () => 0 })
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    const [[, record]] = (await pendingOf(h)) as [[string, WebhookDelivery]]
    expect(record.nextAttemptAt).to.equal(T0 + 500)
  })
})

describe('WebhookService: timeout', () => {
  it('gives up an attempt after 5 s without an answer and retries it', async () => {
    const h = makeHarness()
    h.http.respond(sequence(hang, status(200)))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    expect(h.service.stats().inFlight).to.equal(1)
    await h.clock.tick(4999)
    expect(h.service.stats().inFlight).to.equal(1)
    expect(h.http.calls[0]!.signal.aborted).to.equal(false)
    await h.clock.tick(1)
    expect(h.http.calls[0]!.signal.aborted).to.equal(true)
    expect(h.service.stats().inFlight).to.equal(0)
    const [[, record]] = (await pendingOf(h)) as [[string, WebhookDelivery]]
    expect(record).to.include({ attempts: 1, lastError: 'timeout after 5000 ms', nextAttemptAt: T0 + 5000 + 750 })
    await h.clock.tick(750)
    expect(h.http.calls).to.have.length(2)
    expect(await pendingOf(h)).to.deep.equal([])
  })

  it('honours a custom timeoutMs with a fetch that rejects on abort', async () => {
    const h = makeHarness({ timeoutMs: 2000 })
    h.http.respond(
      (call) =>
        new Promise((_, reject) => call.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    )
    await h.service.enqueue(aReadyEvent('s1'))
    await h.clock.tick(2000)
    const [[, record]] = (await pendingOf(h)) as [[string, WebhookDelivery]]
    expect(record).to.include({ attempts: 1, lastError: 'timeout after 2000 ms' })
  })
})

describe('WebhookService: long outages and dead letters', () => {
  it('loses nothing while a receiver is down for hours and delivers each event once when it is back', async () => {
    const h = makeHarness()
    const delivered: string[] = []
    h.http.respond(networkError)
    for (let n = 1; n <= 5; n++) await h.service.enqueue(aMessageEvent('s1', n))
    await h.clock.tick(6 * HOUR)
    expect(h.service.stats().pending).to.equal(5)
    // FIFO per session: only the oldest event was retried during the outage.
    expect(new Set(h.http.calls.map((c) => c.headers['webhook-id']))).to.deep.equal(new Set(['msg-1']))

    h.http.respond((call) => {
      delivered.push(`${call.headers['webhook-id']} ${JSON.parse(call.body).message.id}`)
      return { status: 200 }
    })
    await h.clock.tick(HOUR)
    expect(delivered).to.deep.equal(['msg-1 MSG1', 'msg-2 MSG2', 'msg-3 MSG3', 'msg-4 MSG4', 'msg-5 MSG5'])
    expect(await pendingOf(h)).to.deep.equal([])
    await h.clock.tick(2 * HOUR)
    expect(delivered).to.have.length(5)
  })

  it('keeps retrying for at least 24 hours, then dead-letters and logs a warning', async () => {
    const h = makeHarness()
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.clock.tick(23 * HOUR)
    expect(await deadOf(h)).to.deep.equal([])
    await h.clock.tick(3 * HOUR)

    const times = h.http.calls.map((c) => c.at - T0)
    expect(times.at(-1)).to.be.at.least(24 * HOUR)
    expect(times.at(-2)).to.be.below(24 * HOUR)
    expect(await pendingOf(h)).to.deep.equal([])
    const [[key, dead]] = (await deadOf(h)) as [[string, WebhookDeadLetter]]
    expect(key).to.equal('s1:msg-1')
    expect(dead).to.include({ id: 'msg-1', sessionId: 's1', event: 'ready', attempts: h.http.calls.length, lastError: 'HTTP 500' })
    expect(dead.deadLetteredAt).to.equal(T0 + times.at(-1)!)
    expect(h.service.stats()).to.deep.equal({ pending: 0, deadLettered: 1, inFlight: 0 })
    expect(h.logs.filter((l) => l.level === 'warn')).to.deep.equal([
      {
        level: 'warn',
        obj: { sessionId: 's1', deliveryId: 'msg-1', event: 'ready', attempts: h.http.calls.length, error: 'HTTP 500' },
        msg: 'webhook delivery given up after the retry period',
      },
    ])
    expect(await h.service.listDeadLetters('s1')).to.deep.equal([dead])
    expect(await h.service.listDeadLetters('s2')).to.deep.equal([])

    const attempts = h.http.calls.length
    await h.clock.tick(24 * HOUR)
    expect(h.http.calls).to.have.length(attempts)
    expect(h.clock.pendingTimers()).to.equal(0)
  })

  it('honours a custom retryForMs and then moves on to the next delivery of the session', async () => {
    const h = makeHarness({ retryForMs: 10 * MINUTE })
    h.http.respond((call) => ({ status: call.headers['webhook-id'] === 'msg-1' ? 500 : 200 }))
    await h.service.enqueue(aMessageEvent('s1', 1))
    await h.service.enqueue(aMessageEvent('s1', 2))
    await h.clock.tick(20 * MINUTE)
    expect((await deadOf(h)).map(([k]) => k)).to.deep.equal(['s1:msg-1'])
    expect(h.http.calls.at(-1)!.headers['webhook-id']).to.equal('msg-2')
    expect(await pendingOf(h)).to.deep.equal([])
  })
})

describe('new WebhookService(options)', () => {
  for (const name of ['retryBaseMs', 'retryMaxMs', 'retryForMs', 'timeoutMs', 'concurrency'] as const) {
    it(`rejects a non-positive ${name}`, () => {
      const build = () => new WebhookService({ store: createMemoryStore(), resolveTarget: async () => undefined, [name]: 0 })
      expect(build).to.throw(RangeError, `webhooks: ${name} must be a positive number, got 0`)
    })
  }
})
