import { expect } from 'chai'
import { fakeSandboxApi } from './helpers/fake-api.js'
import { ADMIN_KEY, SESSION_KEY, TENANT_KEY } from './helpers/fake-gateway.js'
import { call, json, startApp, type TestApp } from './helpers/start-app.js'
import { Router } from '@koa/router'
import { mountSandboxRoutes } from '../src/sandbox-routes.js'
import { fakeGateway } from './helpers/fake-gateway.js'

describe('sandbox control routes', () => {
  describe('with a sandbox', () => {
    let app: TestApp
    const sandbox = fakeSandboxApi()
    beforeEach(async () => {
      app = await startApp({ sandbox })
    })
    afterEach(() => app.close())

    it('runs the sandbox operation over the sandbox with an admin key', async () => {
      const res = await call(`${app.url}/sandbox/accounts`, json({ phoneNumber: '15550001111' }, { 'X-API-Key': ADMIN_KEY }))
      expect(res.status).to.equal(201)
      expect(res.body).to.deep.equal({ success: true, account: { phoneNumber: '15550001111' } })
      expect((sandbox.target as { accounts: string[] }).accounts).to.deep.equal(['15550001111'])
    })

    it('needs a key, even where the table says public', async () => {
      const res = await call(`${app.url}/sandbox/accounts`, json({ phoneNumber: '15550001111' }))
      expect(res.status).to.equal(401)
    })

    it('needs an admin key: session and tenant keys get 403 Admin API key required', async () => {
      for (const key of [SESSION_KEY, TENANT_KEY]) {
        const res = await call(`${app.url}/sandbox/sessions/s1/drop`, { method: 'POST', headers: { 'X-API-Key': key } })
        expect(res.status).to.equal(403)
        expect(res.body).to.deep.equal({ success: false, error: 'Admin API key required' })
      }
    })

    it('are in /openapi.json', async () => {
      const res = await call(`${app.url}/openapi.json`)
      expect(res.body.paths).to.have.property('/sandbox/sessions/{id}/drop')
    })
  })

  describe('without a sandbox', () => {
    let app: TestApp
    beforeEach(async () => {
      app = await startApp()
    })
    afterEach(() => app.close())

    it('do not exist: 404 Not found, even with an admin key', async () => {
      for (const [name, route] of Object.entries(fakeSandboxApi().routes)) {
        const res = await call(`${app.url}${route.path.replace(':id', 's1')}`, { method: route.method, headers: { 'X-API-Key': ADMIN_KEY } })
        expect(res.status, name).to.equal(404)
        expect(res.body, name).to.deep.equal({ success: false, error: 'Not found' })
      }
      const doc = await call(`${app.url}/openapi.json`)
      expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/sandbox'))).to.deep.equal([])
    })
  })

  it('refuses a sandbox route outside /sandbox/', () => {
    const surface = fakeSandboxApi()
    surface.routes = { ...surface.routes, 'accounts.create': { method: 'POST', path: '/sessions/create' } }
    expect(() => mountSandboxRoutes(new Router(), surface, fakeGateway())).to.throw('Sandbox route accounts.create must start with /sandbox/: /sessions/create')
  })
})
