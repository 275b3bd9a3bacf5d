import { SANDBOX_ROUTES } from '@switchboard/sandbox'
import { expect } from 'chai'
import { ROUTES } from '../../src/routes.js'
import { createSession, type TestSession } from './support/flows.js'
import { ADMIN_KEY, E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'

const KEY_REQUIRED = 'API key required. Please provide an API key via X-API-Key header.'

describe('e2e: authentication, public endpoints and docs', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e
  let one: TestSession
  let other: TestSession

  before(async () => {
    e2e = await startE2e()
    one = await createSession(e2e, { name: 'one' })
    other = await createSession(e2e, { name: 'other' })
  })

  after(() => e2e.close())

  it('answers 401 without a key and for an unknown key, with the exact texts', async () => {
    for (const path of ['/sessions', `/sessions/${one.id}/status`, '/admin/usage', '/sandbox/accounts']) {
      const none = await e2e.admin.get(path, { key: null })
      expect(none.status, path).to.equal(401)
      expect(none.body, path).to.deep.equal({ success: false, error: KEY_REQUIRED })
      const unknown = await e2e.admin.get(path, { key: `wamk_${'x'.repeat(40)}` })
      expect(unknown.status, path).to.equal(401)
      expect(unknown.body, path).to.deep.equal({ success: false, error: 'Invalid API key' })
    }
    const unknownSessionKey = await e2e.admin.get(`/sessions/${one.id}/status`, { key: 'wask_nope' })
    expect(unknownSessionKey.body).to.deep.equal({ success: false, error: 'Invalid API key' })
  })

  it('takes the key from X-API-Key, Authorization: Bearer and the api_key query parameter', async () => {
    for (const via of ['header', 'bearer', 'query'] as const) {
      const admin = await e2e.admin.get('/sessions', { via })
      expect(admin.status, via).to.equal(200)
      expect(admin.body.sessions).to.have.length(2)
      const session = await one.api.get(`/sessions/${one.id}/status`, { via })
      expect(session.status, via).to.equal(200)
      expect(session.body.session.id).to.equal(one.id)
    }
    const other = await e2e.admin.get('/sessions', { key: null, headers: { Authorization: `Basic ${ADMIN_KEY}` } })
    expect(other.status).to.equal(401)
  })

  it('keeps a session key to its own session and out of the admin and sandbox endpoints', async () => {
    const foreign = await one.api.get(`/sessions/${other.id}/status`)
    expect(foreign.status).to.equal(403)
    expect(foreign.body).to.deep.equal({ success: false, error: 'This API key can only access its own session' })
    const foreignSend = await one.api.post(`/sessions/${other.id}/send`, { to: '15550005001', text: 'x' })
    expect(foreignSend.status).to.equal(403)
    const missing = await one.api.get('/sessions/00000000-0000-4000-8000-000000000000/status')
    expect(missing.status).to.equal(403)
    for (const [method, path] of [
      ['GET', '/admin/usage'],
      ['GET', '/admin/api-keys'],
      ['POST', '/admin/api-keys'],
      ['POST', '/sessions/create'],
      ['GET', '/sandbox/accounts'],
    ] as const) {
      const reply = await one.api.request(method, path, method === 'POST' ? { name: 'x' } : undefined)
      expect(reply.status, path).to.equal(403)
      expect(reply.body, path).to.deep.equal({ success: false, error: 'Admin API key required' })
    }
  })

  it('answers 404 Not found for unknown routes, and 404 Session not found for unknown sessions', async () => {
    for (const key of [null, ADMIN_KEY]) {
      const reply = await e2e.admin.get('/nothing/here', { key })
      expect(reply.status).to.equal(404)
      expect(reply.body).to.deep.equal({ success: false, error: 'Not found' })
    }
    const wrongMethod = await e2e.admin.request('PATCH', `/sessions/${one.id}/status`)
    expect(wrongMethod.status).to.not.equal(200)
    const missing = await e2e.admin.get('/sessions/00000000-0000-4000-8000-000000000000/status')
    expect(missing.status).to.equal(404)
    expect(missing.body).to.deep.equal({ success: false, error: 'Session not found' })
  })

  it('serves /health without a key with the spec fields', async () => {
    const health = await e2e.admin.get('/health', { key: null })
    expect(health.status).to.equal(200)
    const body = health.body
    expect(body.status).to.be.oneOf(['healthy', 'warning', 'critical'])
    expect(body.timestamp).to.equal(new Date(e2e.clock.now()).toISOString())
    expect(body.cpu).to.include.keys('usage', 'cores', 'model')
    expect(body.memory).to.include.keys('total', 'used', 'usagePercent')
    expect(body.disk).to.include.keys('total', 'usagePercent')
    expect(body.disk.total).to.be.a('number').above(0)
    expect(body.platform).to.be.a('string')
    expect(body.uptime).to.be.a('number')
    expect(body.nodeVersion).to.equal(process.version)
    expect(body.loadAverage).to.be.an('array').with.length(3)
    expect(body.sessions.total).to.equal(2)
    expect(body.network).to.equal('sandbox')
    expect(body.store).to.equal('memory')
    expect(health.headers.get('x-ratelimit-limit')).to.equal(null)
  })

  it('lists every mounted route in /openapi.json and serves the docs page, both without a key', async () => {
    const doc = await e2e.admin.get('/openapi.json', { key: null })
    expect(doc.status).to.equal(200)
    expect(doc.body.openapi).to.match(/^3\./)
    const listed = new Set<string>()
    for (const [path, methods] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) listed.add(`${method.toUpperCase()} ${path}`)
    }
    const mounted = [...Object.values(ROUTES), ...Object.values(SANDBOX_ROUTES)].map(
      (r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`,
    )
    expect(mounted.length).to.equal(Object.keys(ROUTES).length + Object.keys(SANDBOX_ROUTES).length)
    for (const route of mounted) expect(listed, route).to.include(route)
    // The spec's own spelling of a few of them, independent of the route table.
    const spelled = ['POST /sessions/create', 'GET /sessions/{id}/qr', 'POST /sessions/{id}/send', 'POST /admin/api-keys/trial']
    for (const route of [...spelled, 'GET /admin/usage']) expect(listed, route).to.include(route)

    const page = await e2e.admin.get('/api-docs', { key: null })
    expect(page.status).to.equal(200)
    expect(page.headers.get('content-type')).to.match(/^text\/html/)
    expect(page.text).to.include('swagger-ui')
  })
})
