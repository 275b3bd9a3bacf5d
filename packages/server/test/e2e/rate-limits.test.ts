import { expect } from 'chai'
import type { Api, Reply } from './support/api.js'
import { createAccount, createSession, linkByQr } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'

/** Unix seconds of the end of a minute window that started at `startMs`. */
const resetOf = (startMs: number): string => String(Math.ceil((startMs + 60_000) / 1000))

function expectLimitHeaders(reply: Reply, limit: number, remaining: number, reset: string): void {
  expect(reply.headers.get('x-ratelimit-limit'), reply.text).to.equal(String(limit))
  expect(reply.headers.get('x-ratelimit-remaining'), reply.text).to.equal(String(remaining))
  expect(reply.headers.get('x-ratelimit-reset'), reply.text).to.equal(reset)
}

describe('e2e: rate limits', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e

  beforeEach(async () => {
    e2e = await startE2e()
  })

  afterEach(() => e2e.close())

  const managedKey = async (body: Record<string, unknown>): Promise<Api> => {
    const created = await e2e.admin.post('/admin/api-keys', { name: `key ${Math.random()}`, ...body })
    expect(created.status, created.text).to.equal(201)
    return e2e.as(created.body.apiKey.key as string)
  }

  it('refuses the 4th request in a minute of a key limited to 3, with the exact text, retryAfter and headers', async () => {
    const key = await managedKey({ rateLimitGeneral: 3 })
    const start = e2e.clock.now()
    const reset = resetOf(start)
    const first = await key.get('/sessions')
    expect(first.status).to.equal(200)
    expectLimitHeaders(first, 3, 2, reset)
    // Errors of a keyed request carry the headers too.
    const missing = await key.get('/sessions/00000000-0000-4000-8000-000000000000/status')
    expect(missing.status).to.equal(404)
    expectLimitHeaders(missing, 3, 1, reset)
    await e2e.clock.tick(43_000)
    const third = await key.get('/sessions')
    expectLimitHeaders(third, 3, 0, reset)

    const fourth = await key.get('/sessions')
    expect(fourth.status).to.equal(429)
    expect(fourth.body).to.deep.equal({
      success: false,
      error: 'Rate limit exceeded. Please wait 17 seconds before trying again.',
      retryAfter: 17,
    })
    expect(fourth.headers.get('retry-after')).to.equal('17')
    expectLimitHeaders(fourth, 3, 0, reset)

    await e2e.clock.tick(17_000)
    const later = await key.get('/sessions')
    expect(later.status).to.equal(200)
    expectLimitHeaders(later, 3, 2, resetOf(e2e.clock.now()))
  })

  it('gives the master key the configured general limit and headers on every keyed response', async () => {
    await e2e.close()
    e2e = await startE2e({ env: { SWITCHBOARD_RATE_LIMIT_GENERAL: '5' } })
    const reset = resetOf(e2e.clock.now())
    const replies = [
      await e2e.admin.get('/sessions'),
      await e2e.admin.get('/admin/usage'),
      await e2e.admin.post('/sessions/create', {}),
      await e2e.admin.get('/sandbox/accounts'),
      await e2e.admin.get('/admin/api-keys/nope'),
    ]
    expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 400, 200, 404])
    replies.forEach((reply, i) => expectLimitHeaders(reply, 5, 4 - i, reset))
    const sixth = await e2e.admin.get('/sessions')
    expect(sixth.status).to.equal(429)
    expect(sixth.body.error).to.equal('Rate limit exceeded. Please wait 60 seconds before trying again.')
    // Unknown keys and no key are answered without the key's headers.
    const anonymous = await e2e.admin.get('/sessions', { key: null })
    expect(anonymous.status).to.equal(401)
  })

  it('limits the messages of a session to the key’s rateLimitMessages per minute', async () => {
    const key = await managedKey({ rateLimitMessages: 2 })
    await createAccount(e2e, '15550007001')
    await createAccount(e2e, '15550007002')
    const session = await createSession(e2e, { by: key })
    await linkByQr(e2e, session, '15550007001')
    const send = () => session.api.post(`/sessions/${session.id}/send`, { to: '15550007002', text: 'hi' })
    expect((await send()).status).to.equal(200)
    expect((await send()).status).to.equal(200)
    const third = await send()
    expect(third.status).to.equal(429)
    expect(third.body.error).to.match(/^Rate limit exceeded\. Please wait \d+ seconds before trying again\.$/)
    expect(third.body.retryAfter).to.be.within(1, 60)
    expect(third.headers.get('retry-after')).to.equal(String(third.body.retryAfter))
    const inbox = await e2e.admin.get('/sandbox/accounts/15550007002/messages')
    expect(inbox.body.messages).to.have.length(2)
    await e2e.clock.tick(60_000)
    expect((await send()).status).to.equal(200)
  })

  it('limits session creations per hour with rateLimitSessions', async () => {
    const key = await managedKey({ rateLimitSessions: 2 })
    await createSession(e2e, { by: key })
    await createSession(e2e, { by: key })
    const third = await key.post('/sessions/create', { name: 'third' })
    expect(third.status).to.equal(429)
    expect(third.body.retryAfter).to.equal(3600)
    expect(third.body.error).to.equal('Rate limit exceeded. Please wait 3600 seconds before trying again.')
  })
})
