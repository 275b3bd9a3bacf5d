import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { NetworkDriver, OperationTable, Store } from '@switchboard/core'
import { createTestClock, T0 } from '@switchboard/core/testing'
import { expect } from 'chai'
import { z } from 'zod'
import { composeServer, type GatewayParts, type ServerParts } from '../src/compose.js'
import type { ServerConfig } from '../src/config.js'
import { listen } from '../src/http-server.js'
import type { LoadedNetwork } from '../src/network.js'
import Koa from 'koa'
import { fakeSandboxApi } from './helpers/fake-api.js'
import { ADMIN_KEY, fakeGateway, type FakeGateway } from './helpers/fake-gateway.js'
import { testConfig } from './helpers/server-config.js'
import { call } from './helpers/start-app.js'

type Gw = FakeGateway & { start(): Promise<void>; generatedAdminKey?: string; parts?: GatewayParts }

function setup(env: Record<string, string> = {}, tweak: (parts: ServerParts<Gw>, events: string[]) => void = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-compose-'))
  const config: ServerConfig = testConfig({ SWITCHBOARD_DATA_DIR: join(dir, 'data'), ...env })
  const events: string[] = []
  const store = { kind: 'memory', close: async () => void events.push('store.close') } as Store
  let gateway: Gw | undefined
  const operations: OperationTable<Gw> = {
    'sessions.list': { summary: 'List', access: 'tenant', input: z.object({}), run: async (g) => ({ sessions: [], started: g.parts !== undefined }) },
  }
  const parts: ServerParts<Gw> = {
    openStore: async (uri) => {
      events.push(`openStore ${uri}`)
      return store
    },
    loadNetwork: async (_config, deps): Promise<LoadedNetwork> => {
      events.push(`loadNetwork ${deps.store === store}`)
      return { driver: { name: 'fake' } as NetworkDriver, sandbox: fakeSandboxApi(), close: async () => void events.push('network.close') }
    },
    createGateway: (_config, gatewayParts) => {
      events.push(`createGateway ${gatewayParts.network.name}`)
      gateway = Object.assign(fakeGateway(), {
        parts: gatewayParts,
        generatedAdminKey: 'wamk_generated',
        start: async () => void events.push('gateway.start'),
        close: async () => void events.push('gateway.close'),
      })
      return gateway
    },
    operations,
    routes: { 'sessions.list': { method: 'GET', path: '/sessions' } },
  }
  tweak(parts, events)
  return { config, parts, events, dir, gateway: () => gateway! }
}

describe('composeServer()', () => {
  it('opens the store, builds network and gateway, starts it and serves the api and the sandbox routes', async () => {
    const { config, parts, events, dir } = setup()
    const clock = createTestClock(T0)
    const shown: string[] = []
    const server = await composeServer(config, parts, { clock, newId: () => 'id', onGeneratedAdminKey: (key) => shown.push(key) })
    try {
      expect(events).to.deep.equal(['openStore memory', 'loadNetwork true', 'createGateway fake', 'gateway.start'])
      expect(existsSync(join(dir, 'data'))).to.equal(true)
      expect(existsSync(join(dir, 'data', 'media'))).to.equal(true)
      expect(server.url).to.equal(`http://127.0.0.1:${server.port}`)
      expect(server.generatedAdminKey).to.equal('wamk_generated')
      expect(shown).to.deep.equal(['wamk_generated'])
      expect(server.sandbox).to.deep.equal({ accounts: [] })
      expect(server.gateway.parts?.clock).to.equal(clock)
      expect(server.gateway.parts?.newId?.()).to.equal('id')
      const list = await call(`${server.url}/sessions`, { headers: { 'X-API-Key': ADMIN_KEY } })
      expect(list.body).to.deep.equal({ success: true, sessions: [], started: true })
      const sandbox = await call(`${server.url}/sandbox/accounts`, { method: 'POST', headers: { 'X-API-Key': ADMIN_KEY, 'Content-Type': 'application/json' }, body: '{"phoneNumber":"1"}' })
      expect(sandbox.status).to.equal(201)
      const health = await call(`${server.url}/health`)
      expect(health.body.timestamp).to.equal('2026-01-31T09:15:02.123Z')
    } finally {
      await server.close()
    }
  })

  it('close(): stops listening, then closes the gateway, the network door and the store; once', async () => {
    const { config, parts, events } = setup()
    const server = await composeServer(config, parts)
    events.length = 0
    await Promise.all([server.close(), server.close()])
    expect(events).to.deep.equal(['gateway.close', 'network.close', 'store.close'])
    const after = await fetch(`${server.url}/health`).then(
      () => 'answered',
      () => 'refused',
    )
    expect(after).to.equal('refused')
  })

  it('a gateway that fails to start is closed, and the error reaches the caller', async () => {
    const { config, parts, events } = setup({}, (p) => {
      const create = p.createGateway
      p.createGateway = (c, g) => Object.assign(create(c, g), { start: async () => Promise.reject(new Error('store locked')) })
    })
    const err = await composeServer(config, parts).then(
      () => expect.fail('started'),
      (e: Error) => e,
    )
    expect(err.message).to.equal('store locked')
    expect(events.slice(-3)).to.deep.equal(['gateway.close', 'network.close', 'store.close'])
  })

  it('a network that cannot load closes the store', async () => {
    const { config, parts, events } = setup({}, (p) => {
      p.loadNetwork = async () => Promise.reject(new Error('no driver'))
    })
    await composeServer(config, parts).catch(() => {})
    expect(events).to.deep.equal(['openStore memory', 'store.close'])
  })

  it('a port in use closes the gateway, after showing a generated key', async () => {
    const taken = await listen(new Koa(), { port: 0, host: '127.0.0.1' })
    try {
      const { config, parts, events } = setup({ PORT: String(taken.port) })
      const shown: string[] = []
      const err = await composeServer(config, parts, { onGeneratedAdminKey: (key) => shown.push(key) }).then(
        () => expect.fail('started'),
        (e: NodeJS.ErrnoException) => e,
      )
      expect(err.code).to.equal('EADDRINUSE')
      expect(shown).to.deep.equal(['wamk_generated'])
      expect(events.slice(-3)).to.deep.equal(['gateway.close', 'network.close', 'store.close'])
    } finally {
      await taken.close()
    }
  })
})
