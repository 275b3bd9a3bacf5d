import { expect } from 'chai'
import { createTestClock } from '../../src/testing/test-clock.js'
import type { WebhookFetch } from '../../src/webhooks/index.js'
import { postWebhook } from '../../src/webhooks/index.js'
import { SECRET } from './helpers.js'

const target = { url: 'https://hooks.example.com/wa', secret: SECRET }

describe('postWebhook(input)', () => {
  it('cancels the answer’s body and reports the status', async () => {
    const clock = createTestClock()
    let cancelled = false
    const fetch: WebhookFetch = async () => ({ status: 202, body: { cancel: async () => void (cancelled = true) } })
    expect(await postWebhook({ fetch, clock, timeoutMs: 5000, target, id: 'm1', body: '{}' })).to.deep.equal({ ok: true, status: 202 })
    expect(cancelled).to.equal(true)
    expect(clock.pendingTimers()).to.equal(0)
  })

  it('does not post when the caller’s signal is already aborted', async () => {
    const clock = createTestClock()
    let calls = 0
    const fetch: WebhookFetch = async () => {
      calls++
      return { status: 200 }
    }
    const outcome = await postWebhook({ fetch, clock, timeoutMs: 5000, target, id: 'm1', body: '{}', signal: AbortSignal.abort() })
    expect(outcome).to.deep.equal({ ok: false, error: 'aborted' })
    expect(calls).to.equal(0)
  })

  it('ends at once when the caller aborts, even if fetch ignores its signal', async () => {
    const clock = createTestClock()
    const controller = new AbortController()
    const fetch: WebhookFetch = () => new Promise(() => {})
    const attempt = postWebhook({ fetch, clock, timeoutMs: 5000, target, id: 'm1', body: '{}', signal: controller.signal })
    controller.abort()
    expect(await attempt).to.deep.equal({ ok: false, error: 'aborted' })
    expect(clock.pendingTimers()).to.equal(0)
  })

  it('reports a fetch that throws synchronously as a failed attempt', async () => {
    const clock = createTestClock()
    const fetch: WebhookFetch = () => {
      throw new TypeError('Invalid URL')
    }
    expect(await postWebhook({ fetch, clock, timeoutMs: 5000, target, id: 'm1', body: '{}' })).to.deep.equal({
      ok: false,
      error: 'Invalid URL',
    })
  })
})
