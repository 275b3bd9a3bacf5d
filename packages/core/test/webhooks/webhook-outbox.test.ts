import { expect } from 'chai'
import { MAX_TIMER_DELAY_MS, type Clock } from '../../src/kernel/clock.js'
import { sequentialIds } from '../../src/kernel/ids.js'
import type { Collection, Store } from '../../src/store/store.js'
import { T0 } from '../../src/testing/test-clock.js'
import type { WebhookDeadLetter, WebhookDelivery, WebhookTarget } from '../../src/webhooks/index.js'
import { DEAD_LETTERS_COLLECTION, DELIVERIES_COLLECTION } from '../../src/webhooks/index.js'
import { createMemoryStore } from '../support/memory-store.js'
import {
  aMessageEvent,
  aReadyEvent,
  aStatusEvent,
  expectedSignature,
  hang,
  HOOK_URL,
  HOUR,
  makeHarness,
  MINUTE,
  OTHER_SECRET,
  recordsOf,
  status,
} from './helpers.js'

const pendingOf = (store: Store) => recordsOf<WebhookDelivery>(store, DELIVERIES_COLLECTION)
const deadOf = (store: Store) => recordsOf<WebhookDeadLetter>(store, DEAD_LETTERS_COLLECTION)
const ids = (calls: { headers: Record<string, string> }[]) => calls.map((c) => c.headers['webhook-id'])

describe('WebhookService: restart', () => {
  it('resumes the pending deliveries of a previous process, keeping their ids and schedule', async () => {
    const h = makeHarness()
    h.http.respond(status(503))
    await h.service.enqueue(aMessageEvent('s1', 1))
    await h.service.enqueue(aMessageEvent('s1', 2))
    await h.settle()
    await h.service.close()
    // Stored but never attempted: the process was closing.
    await h.service.enqueue(aMessageEvent('s2', 3))
    expect(h.http.calls).to.have.length(1)

    const next = h.restart({ newId: sequentialIds('after') })
    h.http.respond(status(200))
    await next.start()
    await h.settle()
    expect(next.stats()).to.deep.equal({ pending: 2, deadLettered: 0, inFlight: 0 })
    expect(ids(h.http.calls)).to.deep.equal(['msg-1', 'msg-3'])

    await h.clock.tick(750)
    expect(ids(h.http.calls)).to.deep.equal(['msg-1', 'msg-3', 'msg-1', 'msg-2'])
    expect(h.http.calls.map((c) => JSON.parse(c.body).message.id)).to.deep.equal(['MSG1', 'MSG3', 'MSG1', 'MSG2'])
    expect(await pendingOf(h.store)).to.deep.equal([])

    await next.enqueue(aMessageEvent('s1', 4))
    await h.settle()
    expect(ids(h.http.calls).at(-1)).to.equal('after-1')
    await next.close()
  })

  it('counts the dead letters it finds at start, and start() is idempotent', async () => {
    const h = makeHarness({ retryForMs: MINUTE })
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.clock.tick(5 * MINUTE)
    await h.service.close()
    const next = h.restart()
    expect(next.stats().deadLettered).to.equal(0)
    await Promise.all([next.start(), next.start()])
    expect(next.stats()).to.deep.equal({ pending: 0, deadLettered: 1, inFlight: 0 })
  })
})

describe('WebhookService: ordering', () => {
  it('delivers a session’s events in order, holding later ones behind a failing one', async () => {
    const h = makeHarness()
    let s1Up = false
    h.http.respond((call) => ({ status: call.url === HOOK_URL && !s1Up ? 500 : 200 }))
    await h.service.enqueue(aStatusEvent('s1', 'sent'))
    await h.service.enqueue(aStatusEvent('s1', 'delivered'))
    await h.service.enqueue(aReadyEvent('s2'))
    await h.service.enqueue(aStatusEvent('s1', 'read'))
    await h.settle()
    expect(ids(h.http.calls)).to.deep.equal(['msg-1', 'msg-3'])

    s1Up = true
    await h.clock.tick(750)
    const s1Statuses = h.http.calls.filter((c) => c.url === HOOK_URL).map((c) => JSON.parse(c.body).statusUpdate.status)
    expect(s1Statuses).to.deep.equal(['sent', 'sent', 'delivered', 'read'])
  })

  it('keeps the call order even when enqueues finish persisting out of order', async () => {
    const h = makeHarness()
    let release!: () => void
    let first = true
    const slow = new Promise<void>((resolve) => (release = resolve))
    const service = h.restart({
      resolveTarget: async (sessionId) => {
        if (first) {
          first = false
          await slow
        }
        return h.targets.get(sessionId)
      },
    })
    const a = service.enqueue(aMessageEvent('s1', 1))
    await service.enqueue(aMessageEvent('s1', 2))
    await h.settle()
    expect(h.http.calls).to.have.length(0)
    release()
    await a
    await h.settle()
    expect(h.http.calls.map((c) => JSON.parse(c.body).message.id)).to.deep.equal(['MSG1', 'MSG2'])
  })

  it('runs at most `concurrency` attempts at once, one per session', async () => {
    const h = makeHarness({ concurrency: 2 })
    h.http.respond(hang)
    await h.service.enqueue(aReadyEvent('s1'))
    await h.service.enqueue(aMessageEvent('s1', 2))
    await h.service.enqueue(aReadyEvent('s2'))
    await h.service.enqueue(aReadyEvent('s3'))
    await h.settle()
    expect(h.service.stats()).to.deep.equal({ pending: 4, deadLettered: 0, inFlight: 2 })
    expect(h.http.calls.map((c) => c.url)).to.deep.equal([HOOK_URL, 'https://other.example.com/hook'])
    h.http.respond(status(200))
    await h.clock.tick(5000)
    expect(h.http.calls.map((c) => c.url)).to.include('https://third.example.com/hook')
  })
})

describe('WebhookService: targets', () => {
  it('resolves the URL and secret again at each attempt, posting to the new URL as given', async () => {
    const h = makeHarness()
    h.http.respond((call) => ({ status: call.url === HOOK_URL ? 500 : 200 }))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    const moved: WebhookTarget = { url: 'https://new.example.com/hook?token=s3cr%2Bt', secret: OTHER_SECRET }
    h.targets.set('s1', moved)
    await h.clock.tick(750)

    const [before, after] = h.http.calls as [(typeof h.http.calls)[0], (typeof h.http.calls)[0]]
    expect(before.url).to.equal(HOOK_URL)
    expect(after.url).to.equal('https://new.example.com/hook?token=s3cr%2Bt')
    expect(after.headers['webhook-id']).to.equal(before.headers['webhook-id'])
    expect(after.headers['webhook-signature']).to.equal(
      expectedSignature(OTHER_SECRET, 'msg-1', after.headers['webhook-timestamp']!, after.body),
    )
    expect(await pendingOf(h.store)).to.deep.equal([])
  })

  it('stores nothing for a session without a webhook', async () => {
    const h = makeHarness()
    expect(await h.service.enqueue(aReadyEvent('nobody'))).to.equal(undefined)
    await h.clock.tick(HOUR)
    expect(h.http.calls).to.deep.equal([])
    expect(await pendingOf(h.store)).to.deep.equal([])
    expect(h.logs).to.deep.include({
      level: 'debug',
      obj: { sessionId: 'nobody', event: 'ready' },
      msg: 'no webhook for session; event not delivered',
    })
  })

  it('drops a pending delivery when the webhook was removed before its next attempt', async () => {
    const h = makeHarness()
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    h.targets.delete('s1')
    await h.clock.tick(750)
    expect(h.http.calls).to.have.length(1)
    expect(await pendingOf(h.store)).to.deep.equal([])
    expect(await deadOf(h.store)).to.deep.equal([])
    expect(h.logs).to.deep.include({
      level: 'debug',
      obj: { sessionId: 's1', deliveryId: 'msg-1', event: 'ready' },
      msg: 'no webhook for session any more; delivery dropped',
    })
  })
})

describe('WebhookService.deleteForSession(sessionId)', () => {
  it('drops the session’s pending deliveries and dead letters, leaving other sessions alone', async () => {
    const h = makeHarness({ retryForMs: MINUTE })
    h.http.respond((call) => ({ status: call.url === HOOK_URL ? 500 : 503 }))
    await h.service.enqueue(aMessageEvent('s1', 1))
    await h.clock.tick(2 * MINUTE)
    for (let n = 2; n <= 4; n++) await h.service.enqueue(aMessageEvent('s1', n))
    await h.service.enqueue(aReadyEvent('s2'))
    await h.settle()
    expect(h.service.stats()).to.include({ pending: 4, deadLettered: 1 })

    expect(await h.service.deleteForSession('s1')).to.equal(3)
    expect((await pendingOf(h.store)).map(([k]) => k)).to.deep.equal(['s2:msg-5'])
    expect(await deadOf(h.store)).to.deep.equal([])
    expect(h.service.stats()).to.deep.equal({ pending: 1, deadLettered: 0, inFlight: 0 })
    const s1Calls = h.http.calls.filter((c) => c.url === HOOK_URL).length
    await h.clock.tick(HOUR)
    expect(h.http.calls.filter((c) => c.url === HOOK_URL)).to.have.length(s1Calls)
  })

  it('aborts an attempt under way and writes nothing back', async () => {
    const h = makeHarness()
    h.http.respond(hang)
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    expect(h.service.stats().inFlight).to.equal(1)
    expect(await h.service.deleteForSession('s1')).to.equal(1)
    await h.settle()
    expect(h.http.calls[0]!.signal.aborted).to.equal(true)
    expect(h.service.stats()).to.deep.equal({ pending: 0, deadLettered: 0, inFlight: 0 })
    expect(await pendingOf(h.store)).to.deep.equal([])
    expect(h.clock.pendingTimers()).to.equal(0)
  })

  it('does not touch a session whose id starts with the deleted one', async () => {
    const h = makeHarness()
    h.targets.set('s1:x', { url: 'https://colon.example.com/', secret: OTHER_SECRET })
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1:x'))
    await h.settle()
    expect(await h.service.deleteForSession('s1')).to.equal(0)
    expect((await pendingOf(h.store)).map(([k]) => k)).to.deep.equal(['s1:x:msg-1'])
  })

  it('drops a delivery whose enqueue was still persisting', async () => {
    const h = makeHarness()
    let release!: () => void
    const slow = new Promise<void>((resolve) => (release = resolve))
    const service = h.restart({
      resolveTarget: async (sessionId) => {
        await slow
        return h.targets.get(sessionId)
      },
    })
    const pending = service.enqueue(aReadyEvent('s1'))
    await service.deleteForSession('s1')
    release()
    expect(await pending).to.equal(undefined)
    await h.settle()
    expect(h.http.calls).to.deep.equal([])
    expect(await pendingOf(h.store)).to.deep.equal([])
  })
})

describe('WebhookService: timers', () => {
  it('arms a single timer for the earliest due delivery', async () => {
    const h = makeHarness()
    h.http.respond(status(500))
    await h.service.enqueue(aReadyEvent('s1'))
    await h.clock.tick(300)
    await h.service.enqueue(aReadyEvent('s2'))
    await h.clock.tick(300)
    await h.service.enqueue(aReadyEvent('s3'))
    await h.settle()
    expect(h.service.stats().pending).to.equal(3)
    expect(h.clock.pendingTimers()).to.equal(1)
    await h.clock.tick(150)
    expect(h.http.calls.map((c) => c.at - T0)).to.deep.equal([0, 300, 600, 750])
    expect(h.clock.pendingTimers()).to.equal(1)
  })

  it('never arms a timer longer than MAX_TIMER_DELAY_MS, and still attempts on time', async () => {
    const DAY = 24 * HOUR
    const h = makeHarness()
    const delays: number[] = []
    const clock: Clock = {
      now: () => h.clock.now(),
      setTimer: (fn, ms) => {
        delays.push(ms)
        // An over-long delay would fire at once on a real timer and spin; fail the test instead.
        if (ms > MAX_TIMER_DELAY_MS) throw new Error(`timer of ${ms} ms armed`)
        return h.clock.setTimer(fn, ms)
      },
      clearTimer: (t) => h.clock.clearTimer(t),
    }
    const service = h.restart({ clock, retryBaseMs: 40 * DAY, retryMaxMs: 40 * DAY, retryForMs: 100 * DAY })
    h.http.respond(status(500))
    await service.enqueue(aReadyEvent('s1'))
    await h.settle()
    await h.clock.tick(30 * DAY)
    expect(h.http.calls.map((c) => c.at - T0)).to.deep.equal([0, 30 * DAY])
    expect(Math.max(...delays)).to.equal(MAX_TIMER_DELAY_MS)
    await service.close()
  })
})

describe('WebhookService.close()', () => {
  it('clears its timer and waits for the attempt under way, which its timeout bounds', async () => {
    const h = makeHarness()
    h.http.respond(hang)
    await h.service.enqueue(aReadyEvent('s1'))
    await h.service.enqueue(aReadyEvent('s2'))
    await h.settle()
    let closed = false
    const closing = h.service.close().then(() => (closed = true))
    await h.settle()
    expect(closed).to.equal(false)
    await h.clock.tick(5000)
    await closing
    expect(h.clock.pendingTimers()).to.equal(0)
    expect((await pendingOf(h.store)).map(([, r]) => [r.id, r.attempts, r.lastError])).to.deep.equal([
      ['msg-1', 1, 'timeout after 5000 ms'],
      ['msg-2', 1, 'timeout after 5000 ms'],
    ])
    await h.clock.tick(HOUR)
    expect(h.http.calls).to.have.length(2)
  })
})

describe('WebhookService: store failures', () => {
  it('logs the error, keeps the delivery and tries again after a backoff', async () => {
    const base = createMemoryStore()
    let failGets = 1
    const store: Store = {
      ...base,
      collection<T>(name: string): Collection<T> {
        const inner = base.collection<T>(name)
        if (name !== DELIVERIES_COLLECTION) return inner
        return {
          name,
          get: async (id) => {
            if (failGets-- > 0) throw new Error('store unavailable')
            return inner.get(id)
          },
          getMany: (ids) => inner.getMany(ids),
          set: (id, value) => inner.set(id, value),
          delete: (id) => inner.delete(id),
          batch: (write) => inner.batch(write),
          entries: (prefix) => inner.entries(prefix),
          clear: (prefix) => inner.clear(prefix),
        }
      },
    }
    const h = makeHarness({ store })
    await h.service.enqueue(aReadyEvent('s1'))
    await h.settle()
    expect(h.http.calls).to.have.length(0)
    const error = h.logs.find((l) => l.level === 'error')
    expect(error?.msg).to.equal('webhook delivery bookkeeping failed')
    expect((error?.obj['err'] as Error).message).to.equal('store unavailable')
    await h.clock.tick(749)
    expect(h.http.calls).to.have.length(0)
    await h.clock.tick(1)
    expect(h.http.calls).to.have.length(1)
    expect(await pendingOf(base)).to.deep.equal([])
  })
})
