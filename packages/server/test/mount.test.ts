import { tmpdir } from 'node:os'
import { expect } from 'chai'
import { ADMIN_KEY, DEACTIVATED_KEY, SESSION_KEY, TENANT_KEY } from './helpers/fake-gateway.js'
import { call, json, startApp, type TestApp } from './helpers/start-app.js'

const MISSING_KEY = 'API key required. Please provide an API key via X-API-Key header.'

describe('mount()', () => {
  let app: TestApp
  beforeEach(async () => {
    app = await startApp({ limit: 5 })
  })
  afterEach(() => app.close())

  describe('the API key', () => {
    it('is read from X-API-Key', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(200)
      expect(res.body.keyId).to.equal('sk1')
    })

    it('is read from Authorization: Bearer', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { Authorization: `Bearer ${SESSION_KEY}` } })
      expect(res.body.keyId).to.equal('sk1')
    })

    it('is read from the api_key query parameter, which is not part of the input', async () => {
      const res = await call(`${app.url}/sessions/s1?api_key=${SESSION_KEY}&format=png`)
      expect(res.status).to.equal(200)
      expect(res.body.keyId).to.equal('sk1')
      expect(res.body.input).to.deep.equal({ format: 'png', id: 's1' })
    })

    it('prefers X-API-Key over Bearer over the query', async () => {
      const res = await call(`${app.url}/sessions/s1?api_key=wamk_nope`, {
        headers: { 'X-API-Key': ADMIN_KEY, Authorization: `Bearer ${SESSION_KEY}` },
      })
      expect(res.body.keyId).to.equal('master')
      const bearer = await call(`${app.url}/sessions/s1?api_key=wamk_nope`, { headers: { Authorization: `Bearer ${SESSION_KEY}` } })
      expect(bearer.body.keyId).to.equal('sk1')
    })

    it('ignores an Authorization header of another scheme', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { Authorization: `Basic ${SESSION_KEY}` } })
      expect(res.status).to.equal(401)
      expect(res.body).to.deep.equal({ success: false, error: MISSING_KEY })
    })

    it('missing: 401 with the exact text', async () => {
      const res = await call(`${app.url}/sessions/s1`)
      expect(res.status).to.equal(401)
      expect(res.body).to.deep.equal({ success: false, error: MISSING_KEY })
    })

    it('unknown: 401 Invalid API key', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': 'wamk_unknown' } })
      expect(res.status).to.equal(401)
      expect(res.body).to.deep.equal({ success: false, error: 'Invalid API key' })
    })

    it('deactivated: 403 API key is deactivated', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': DEACTIVATED_KEY } })
      expect(res.status).to.equal(403)
      expect(res.body).to.deep.equal({ success: false, error: 'API key is deactivated' })
    })

    it('is not needed on a public operation, which is not rate-limited', async () => {
      const res = await call(`${app.url}/ping`)
      expect(res.status).to.equal(200)
      expect(res.body.keyId).to.equal(null)
      expect(res.headers.get('X-RateLimit-Limit')).to.equal(null)
      expect(app.gateway.calls).to.deep.equal([])
    })
  })

  describe('authorization', () => {
    it('passes the access rule and the :id param to authorize', async () => {
      await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(app.gateway.calls.find((c) => c.method === 'authorize')?.args).to.deep.equal(['sk1', 'session', 's1'])
    })

    it('a session key on an admin route: 403 Admin API key required', async () => {
      const res = await call(`${app.url}/admin/only`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(403)
      expect(res.body).to.deep.equal({ success: false, error: 'Admin API key required' })
    })

    it('a tenant key on an admin route: 403 Admin API key required', async () => {
      const res = await call(`${app.url}/admin/only`, { headers: { 'X-API-Key': TENANT_KEY } })
      expect(res.status).to.equal(403)
    })

    it('a session key on another session: 403 with the exact text', async () => {
      const res = await call(`${app.url}/sessions/s2`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(403)
      expect(res.body).to.deep.equal({ success: false, error: 'This API key can only access its own session' })
    })

    it('an unknown session: 404 Session not found', async () => {
      const res = await call(`${app.url}/sessions/missing`, { headers: { 'X-API-Key': ADMIN_KEY } })
      expect(res.status).to.equal(404)
      expect(res.body).to.deep.equal({ success: false, error: 'Session not found' })
    })

    it("an unknown session on an operation with its own text: that text (the pairing code's)", async () => {
      const res = await call(`${app.url}/sessions/missing/pair`, { method: 'POST', headers: { 'X-API-Key': ADMIN_KEY } })
      expect(res.status).to.equal(404)
      expect(res.body).to.deep.equal({ success: false, error: 'Session not found or not started' })
      const denied = await call(`${app.url}/sessions/s2/pair`, { method: 'POST', headers: { 'X-API-Key': SESSION_KEY } })
      expect(denied.status).to.equal(403)
      expect(denied.body.error).to.equal('This API key can only access its own session')
      const found = await call(`${app.url}/sessions/s1/pair`, { method: 'POST', headers: { 'X-API-Key': SESSION_KEY } })
      expect(found.status).to.equal(200)
    })

    it('runs nothing when authorization fails, and reads no body', async () => {
      const res = await call(`${app.url}/sessions/s2`, { method: 'PUT', headers: { 'X-API-Key': SESSION_KEY, 'Content-Type': 'application/json' }, body: '{bad' })
      expect(res.status).to.equal(403)
    })
  })

  describe('input and answer', () => {
    it('merges query, body and params, params winning', async () => {
      const res = await call(
        `${app.url}/sessions/s1?dryRun=yes&id=fromQuery&name=fromQuery`,
        { method: 'PUT', headers: { 'X-API-Key': SESSION_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'fromBody', id: 'fromBody' }) },
      )
      expect(res.status).to.equal(200)
      expect(res.body.input).to.deep.equal({ dryRun: 'yes', id: 's1', name: 'fromBody' })
    })

    it('answers successStatus and { success: true, ...result }', async () => {
      const res = await call(`${app.url}/sessions/create`, json({ name: 'x' }, { 'X-API-Key': ADMIN_KEY }))
      expect(res.status).to.equal(201)
      expect(res.body).to.deep.include({ success: true, op: 'Create a thing', keyId: 'master' })
      expect(res.body.input).to.deep.equal({ name: 'x' })
    })

    it('passes the request id to the operation', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY, 'X-Request-Id': 'req-42' } })
      expect(res.body.requestId).to.equal('req-42')
    })

    it('answers { success: true } when the operation returns nothing', async () => {
      const res = await call(`${app.url}/sessions/s1/nothing`, { method: 'POST', headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(200)
      expect(res.body).to.deep.equal({ success: true })
    })

    it('treats a POST with no body as empty input', async () => {
      const res = await call(`${app.url}/sessions/create`, { method: 'POST', headers: { 'X-API-Key': ADMIN_KEY } })
      expect(res.status).to.equal(201)
      expect(res.body.input).to.deep.equal({})
    })

    it('rejects a JSON array body with 400', async () => {
      const res = await call(`${app.url}/sessions/create`, json([1, 2], { 'X-API-Key': ADMIN_KEY }))
      expect(res.status).to.equal(400)
      expect(res.body).to.deep.equal({ success: false, error: 'body must be a JSON object' })
    })

    it('rejects malformed JSON with 400 Invalid JSON body', async () => {
      const res = await call(`${app.url}/sessions/create`, { method: 'POST', headers: { 'X-API-Key': ADMIN_KEY, 'Content-Type': 'application/json' }, body: '{"name":' })
      expect(res.status).to.equal(400)
      expect(res.body).to.deep.equal({ success: false, error: 'Invalid JSON body' })
    })

    it('rejects a JSON scalar with 400 Invalid JSON body', async () => {
      const res = await call(`${app.url}/sessions/create`, { method: 'POST', headers: { 'X-API-Key': ADMIN_KEY, 'Content-Type': 'application/json' }, body: '"text"' })
      expect(res.status).to.equal(400)
      expect(res.body.error).to.equal('Invalid JSON body')
    })

    it('accepts a body of several megabytes (media as a data URL)', async () => {
      const image = `data:image/png;base64,${'A'.repeat(3 * 1024 * 1024)}`
      const res = await call(`${app.url}/sessions/create`, json({ name: 'x', image }, { 'X-API-Key': ADMIN_KEY }))
      expect(res.status).to.equal(201)
      expect(res.body.input.image).to.have.length(image.length)
    })

    it('rejects a body over 25 MB with 400 Request body too large', async () => {
      const body = Buffer.alloc(26 * 1024 * 1024, 0x20)
      const res = await call(`${app.url}/sessions/create`, { method: 'POST', headers: { 'X-API-Key': ADMIN_KEY, 'Content-Type': 'application/json' }, body })
      expect(res.status).to.equal(400)
      expect(res.body).to.deep.equal({ success: false, error: 'Request body too large' })
    })

    it('sends Deprecation: true on a deprecated route', async () => {
      const res = await call(`${app.url}/sessions/s1/legacy`, { method: 'POST', headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(200)
      expect(res.headers.get('Deprecation')).to.equal('true')
    })
  })

  describe('route precedence', () => {
    it('a literal path wins over a :param path registered before it', async () => {
      const res = await call(`${app.url}/sessions/special`, { headers: { 'X-API-Key': ADMIN_KEY } })
      expect(res.body.op).to.equal('A literal path beside /sessions/:id')
    })

    it('POST /sessions/create is not taken by a /sessions/:id route', async () => {
      const res = await call(`${app.url}/sessions/create`, json({ name: 'x' }, { 'X-API-Key': ADMIN_KEY }))
      expect(res.body.op).to.equal('Create a thing')
    })
  })

  describe('rate-limit headers', () => {
    it('are on every keyed success', async () => {
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.headers.get('X-RateLimit-Limit')).to.equal('5')
      expect(res.headers.get('X-RateLimit-Remaining')).to.equal('4')
      expect(res.headers.get('X-RateLimit-Reset')).to.equal('1769850960')
    })

    it('are on errors after authentication (403, 500)', async () => {
      const denied = await call(`${app.url}/sessions/s2`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(denied.headers.get('X-RateLimit-Remaining')).to.equal('4')
      const failed = await call(`${app.url}/sessions/s1/fail/unexpected`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(failed.status).to.equal(500)
      expect(failed.headers.get('X-RateLimit-Remaining')).to.equal('3')
    })

    it('count a session key against the key that created its session', async () => {
      await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY } })
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': ADMIN_KEY } })
      expect(res.headers.get('X-RateLimit-Remaining')).to.equal('3')
    })

    it('over the limit: 429 with the exact text, retryAfter, Retry-After and the headers', async () => {
      for (let i = 0; i < 5; i++) await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY } })
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(429)
      expect(res.body).to.deep.equal({ success: false, error: 'Rate limit exceeded. Please wait 42 seconds before trying again.', retryAfter: 42 })
      expect(res.headers.get('Retry-After')).to.equal('42')
      expect(res.headers.get('X-RateLimit-Limit')).to.equal('5')
      expect(res.headers.get('X-RateLimit-Remaining')).to.equal('0')
      expect(res.headers.get('X-RateLimit-Reset')).to.equal('1769850960')
    })

    it('requests with no valid key are counted per client address', async () => {
      await call(`${app.url}/sessions/s1`)
      await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': 'wamk_wrong' } })
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': DEACTIVATED_KEY } })
      expect(res.status).to.equal(403)
      expect(res.headers.get('X-RateLimit-Remaining')).to.equal('2')
      const limited = app.gateway.calls.filter((c) => c.method === 'takeGeneralLimit').map((c) => c.args[0])
      expect(limited).to.deep.equal(['address:127.0.0.1', 'address:127.0.0.1', 'address:127.0.0.1'])
    })

    it('behind a trusted proxy, the address comes from X-Forwarded-For', async () => {
      const proxied = await startApp({ config: { dataDir: tmpdir(), trustProxy: true } })
      try {
        await call(`${proxied.url}/sessions/s1`, { headers: { 'X-Forwarded-For': '203.0.113.9' } })
        expect(proxied.gateway.calls.find((c) => c.method === 'takeGeneralLimit')?.args).to.deep.equal(['address:203.0.113.9'])
      } finally {
        await proxied.close()
      }
    })

    it('without a trusted proxy, X-Forwarded-For is ignored', async () => {
      await call(`${app.url}/sessions/s1`, { headers: { 'X-Forwarded-For': '203.0.113.9' } })
      expect(app.gateway.calls.find((c) => c.method === 'takeGeneralLimit')?.args).to.deep.equal(['address:127.0.0.1'])
    })

    it('an address over the limit gets 429 instead of 401', async () => {
      for (let i = 0; i < 5; i++) await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': 'wamk_guess' } })
      const res = await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': 'wamk_guess' } })
      expect(res.status).to.equal(429)
      expect(res.body.retryAfter).to.equal(42)
    })
  })
})
