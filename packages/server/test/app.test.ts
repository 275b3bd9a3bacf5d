import { expect } from 'chai'
import { ADMIN_KEY, SESSION_KEY } from './helpers/fake-gateway.js'
import { call, startApp, type TestApp } from './helpers/start-app.js'

describe('createApp()', () => {
  let app: TestApp
  beforeEach(async () => {
    app = await startApp({ newRequestId: () => 'generated-id' })
  })
  afterEach(() => app.close())

  describe('request id', () => {
    it('echoes a given X-Request-Id', async () => {
      const res = await call(`${app.url}/ping`, { headers: { 'X-Request-Id': 'abc-123' } })
      expect(res.headers.get('X-Request-Id')).to.equal('abc-123')
    })

    it('makes one when none is given, also on errors', async () => {
      const res = await call(`${app.url}/nowhere`)
      expect(res.status).to.equal(404)
      expect(res.headers.get('X-Request-Id')).to.equal('generated-id')
    })

    it('replaces one that is too long or not plain', async () => {
      const long = await call(`${app.url}/ping`, { headers: { 'X-Request-Id': 'x'.repeat(129) } })
      expect(long.headers.get('X-Request-Id')).to.equal('generated-id')
      const odd = await call(`${app.url}/ping`, { headers: { 'X-Request-Id': 'a b<script>' } })
      expect(odd.headers.get('X-Request-Id')).to.equal('generated-id')
    })
  })

  describe('access log', () => {
    it('writes one line per request with method, path, status, ms and requestId', async () => {
      await call(`${app.url}/sessions/s1?format=png`, { headers: { 'X-API-Key': SESSION_KEY, 'X-Request-Id': 'r1' } })
      const lines = app.logs.filter((l) => l.msg === 'request')
      expect(lines).to.have.length(1)
      const { ms, ...rest } = lines[0]!.obj
      expect(rest).to.deep.equal({ method: 'GET', path: '/sessions/s1', status: 200, requestId: 'r1' })
      expect(ms).to.be.a('number')
    })

    it('logs the final status of a failed request', async () => {
      await call(`${app.url}/sessions/s1`)
      expect(app.logs.find((l) => l.msg === 'request')?.obj.status).to.equal(401)
    })

    it('never logs a key, from a header or the query', async () => {
      await call(`${app.url}/sessions/s1?api_key=${SESSION_KEY}`)
      await call(`${app.url}/sessions/s1`, { headers: { 'X-API-Key': ADMIN_KEY, Authorization: `Bearer ${SESSION_KEY}` } })
      await call(`${app.url}/sessions/s1/fail/unexpected?api_key=${SESSION_KEY}`)
      const text = JSON.stringify(app.logs, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v))
      expect(text).not.to.include(SESSION_KEY)
      expect(text).not.to.include(ADMIN_KEY)
    })
  })

  describe('errors', () => {
    it('an unknown route: 404 Not found', async () => {
      const res = await call(`${app.url}/nowhere`)
      expect(res.status).to.equal(404)
      expect(res.body).to.deep.equal({ success: false, error: 'Not found' })
    })

    it('a known path with another method: 404 Not found', async () => {
      const res = await call(`${app.url}/sessions/s1/legacy`, { method: 'GET', headers: { 'X-API-Key': ADMIN_KEY } })
      expect(res.status).to.equal(404)
      expect(res.body).to.deep.equal({ success: false, error: 'Not found' })
      const patch = await call(`${app.url}/sessions/s1`, { method: 'PATCH', headers: { 'X-API-Key': ADMIN_KEY } })
      expect(patch.status).to.equal(404)
    })

    it('a GatewayError: its status, its text, retryAfter and Retry-After', async () => {
      const res = await call(`${app.url}/sessions/s1/fail/gateway`, { headers: { 'X-API-Key': SESSION_KEY } })
      expect(res.status).to.equal(503)
      expect(res.body).to.deep.equal({ success: false, error: 'QR code not available yet. Session state: starting', retryAfter: 2 })
      expect(res.headers.get('Retry-After')).to.equal('2')
    })

    it('no Retry-After on an error without retryAfter', async () => {
      const res = await call(`${app.url}/sessions/s1`)
      expect(res.headers.get('Retry-After')).to.equal(null)
      expect(res.body).not.to.have.property('retryAfter')
    })

    it('anything else: 500 Internal server error, details only in the log', async () => {
      const res = await call(`${app.url}/sessions/s1/fail/unexpected`, { headers: { 'X-API-Key': SESSION_KEY, 'X-Request-Id': 'r500' } })
      expect(res.status).to.equal(500)
      expect(res.body).to.deep.equal({ success: false, error: 'Internal server error' })
      const logged = app.logs.find((l) => l.level === 'error')
      expect((logged?.obj.err as Error).message).to.equal('secret detail of the failure')
      expect(logged?.obj.requestId).to.equal('r500')
    })

    it('answers JSON on every error', async () => {
      const res = await fetch(`${app.url}/nowhere`)
      expect(res.headers.get('Content-Type')).to.match(/^application\/json/)
    })
  })
})
