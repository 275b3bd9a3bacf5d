import { Router } from '@koa/router'
import type { OperationSpec } from '@switchboard/core'
import { expect } from 'chai'
import { z } from 'zod'
import { mount } from '../src/mount.js'
import { ROUTES } from '../src/routes.js'
import { ADMIN_KEY, fakeGateway, type FakeGateway } from './helpers/fake-gateway.js'
import { call, startApp, type TestApp } from './helpers/start-app.js'

const MISSING_KEY = 'API key required. Please provide an API key via X-API-Key header.'

/** Until core's OPERATIONS exists: one echoing operation per route name. */
function echoOperations(): Record<string, OperationSpec<FakeGateway>> {
  return Object.fromEntries(
    Object.keys(ROUTES).map((name) => [
      name,
      {
        summary: name,
        access: name.startsWith('admin.') ? 'admin' : 'session',
        input: z.object({}).passthrough(),
        async run(_gateway: FakeGateway, input: unknown) {
          return { op: name, input }
        },
      } satisfies OperationSpec<FakeGateway>,
    ]),
  )
}

const concrete = (path: string): string => path.replace(':id', 's1').replace(':keyId', 'k1').replace(':phone', '15550001111')

describe('ROUTES', () => {
  let app: TestApp
  before(async () => {
    const gateway = fakeGateway(10_000)
    app = await startApp({ gateway, api: { target: gateway, operations: echoOperations(), routes: ROUTES } })
  })
  after(() => app.close())

  for (const [name, route] of Object.entries(ROUTES)) {
    describe(`${route.method} ${route.path} (${name})`, () => {
      it('requires a key: 401 with the exact text', async () => {
        const res = await call(`${app.url}${concrete(route.path)}`, { method: route.method })
        expect(res.status).to.equal(401)
        expect(res.body).to.deep.equal({ success: false, error: MISSING_KEY })
      })

      it('reaches its own operation with its path params', async () => {
        const res = await call(`${app.url}${concrete(route.path)}`, { method: route.method, headers: { 'X-API-Key': ADMIN_KEY } })
        expect(res.status).to.equal(200)
        expect(res.body.op).to.equal(name)
        for (const param of route.path.match(/:\w+/g) ?? []) expect(res.body.input).to.have.property(param.slice(1))
      })
    })
  }

  it('has distinct method + path pairs', () => {
    const pairs = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`)
    expect(new Set(pairs).size).to.equal(pairs.length)
  })
})

describe('mount() one-to-one check', () => {
  const op: OperationSpec<unknown> = { summary: 's', access: 'admin', input: z.object({}), run: async () => ({}) }

  it('refuses a route whose operation does not exist', () => {
    expect(() => mount(new Router(), { target: {}, operations: {}, routes: { 'a.b': { method: 'GET', path: '/a' } } }, fakeGateway())).to.throw(
      'Route for unknown operation a.b',
    )
  })

  it('refuses an operation with no route', () => {
    expect(() => mount(new Router(), { target: {}, operations: { 'a.b': op }, routes: {} }, fakeGateway())).to.throw('Operation a.b has no route')
  })
})
