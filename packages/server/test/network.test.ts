import { silentLogger, systemClock } from '@switchboard/core'
import type { NetworkDriver, Store } from '@switchboard/core'
import { expect } from 'chai'
import { loadConfig, type ServerConfig } from '../src/config.js'
import { loadNetwork, NetworkUnavailableError, WHATSAPP_UNAVAILABLE, WIRE_UNAVAILABLE } from '../src/network.js'

const store = { kind: 'memory' } as Store
const driver = (name: string) => ({ name }) as NetworkDriver
const notFound = (specifier: string) => Object.assign(new Error(`Cannot find module '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' })
const config = (network: string): ServerConfig =>
  loadConfig({ env: { SWITCHBOARD_NETWORK: network, SWITCHBOARD_SANDBOX_QR_DELAY_MS: '7', SWITCHBOARD_SANDBOX_CONNECT_DELAY_MS: '3', SWITCHBOARD_BAILEYS_BROWSER: 'Acme' }, argv: [] })

function sandboxModule(calls: unknown[]) {
  return {
    createSandbox(options: unknown) {
      calls.push(['createSandbox', options])
      return {
        driver: () => driver('sandbox'),
        load: async () => void calls.push(['sandbox.load']),
        close: async () => void calls.push(['sandbox.close']),
      }
    },
    SANDBOX_OPERATIONS: { 'accounts.list': {} },
    SANDBOX_ROUTES: { 'accounts.list': { method: 'GET', path: '/sandbox/accounts' } },
  }
}

const rejects = async (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (err: Error) => err,
  )

describe('loadNetwork()', () => {
  const deps = (modules: Record<string, unknown>, calls: unknown[] = []) => ({
    store,
    clock: systemClock,
    logger: silentLogger,
    importModule: async (specifier: string) => {
      calls.push(['import', specifier])
      if (!(specifier in modules)) throw notFound(specifier)
      const mod = modules[specifier]
      if (mod instanceof Error) throw mod
      return mod
    },
  })

  describe('whatsapp', () => {
    it('builds the Baileys driver with the browser name, loading no sandbox', async () => {
      const calls: unknown[] = []
      const baileys = {
        createBaileysDriver: (options: unknown) => {
          calls.push(['createBaileysDriver', options])
          return driver('whatsapp')
        },
      }
      const network = await loadNetwork(config('whatsapp'), deps({ '@switchboard/core/baileys': baileys }, calls))
      expect(network.driver.name).to.equal('whatsapp')
      expect(network.sandbox).to.equal(undefined)
      expect(calls).to.deep.equal([
        ['import', '@switchboard/core/baileys'],
        ['createBaileysDriver', { clock: systemClock, logger: silentLogger, browser: 'Acme' }],
      ])
    })

    it('missing module: NetworkUnavailableError with the message for the operator', async () => {
      const err = await rejects(loadNetwork(config('whatsapp'), deps({})))
      expect(err).to.be.instanceOf(NetworkUnavailableError)
      expect(err.message).to.equal('The WhatsApp driver is not available in this build; use SWITCHBOARD_NETWORK=sandbox')
      expect(err.message).to.equal(WHATSAPP_UNAVAILABLE)
    })

    it('module without createBaileysDriver: the same error', async () => {
      const err = await rejects(loadNetwork(config('whatsapp'), deps({ '@switchboard/core/baileys': {} })))
      expect(err.message).to.equal(WHATSAPP_UNAVAILABLE)
    })

    it('another failure while loading is not hidden', async () => {
      const err = await rejects(loadNetwork(config('whatsapp'), deps({ '@switchboard/core/baileys': new SyntaxError('broken build') })))
      expect(err).to.be.instanceOf(SyntaxError)
    })
  })

  describe('sandbox', () => {
    it('builds the sandbox on the store and clock with the delays, and its control surface', async () => {
      const calls: unknown[] = []
      const network = await loadNetwork(config('sandbox'), deps({ '@switchboard/sandbox': sandboxModule(calls) }, calls))
      expect(network.driver.name).to.equal('sandbox')
      expect(calls).to.deep.include(['createSandbox', { store, clock: systemClock, logger: silentLogger, qrDelayMs: 7, connectDelayMs: 3 }])
      expect(calls.findIndex((c) => (c as string[])[0] === 'sandbox.load')).to.be.above(calls.findIndex((c) => (c as string[])[0] === 'createSandbox'))
      expect(network.sandbox?.routes).to.deep.equal({ 'accounts.list': { method: 'GET', path: '/sandbox/accounts' } })
      expect(network.sandbox?.operations).to.have.keys(['accounts.list'])
      await network.close?.()
      expect(calls.at(-1)).to.deep.equal(['sandbox.close'])
      expect(calls.filter((c) => (c as string[])[1] === '@switchboard/core/baileys')).to.deep.equal([])
    })
  })

  describe('sandbox-wire', () => {
    it('missing protocol door: NetworkUnavailableError naming sandbox, with no world built', async () => {
      const calls: unknown[] = []
      const err = await rejects(loadNetwork(config('sandbox-wire'), deps({ '@switchboard/sandbox': sandboxModule(calls) })))
      expect(err).to.be.instanceOf(NetworkUnavailableError)
      expect(err.message).to.equal(WIRE_UNAVAILABLE)
      expect(calls.filter((c) => (c as string[])[0] === 'createSandbox')).to.deep.equal([])
    })

    it('missing Baileys driver: the WhatsApp message', async () => {
      const modules = { '@switchboard/sandbox': sandboxModule([]), '@switchboard/sandbox/protocol': { startProtocolServer: async () => ({}) } }
      const err = await rejects(loadNetwork(config('sandbox-wire'), deps(modules)))
      expect(err.message).to.equal(WHATSAPP_UNAVAILABLE)
    })

    it('serves the sandbox over the protocol door and points the Baileys driver at it', async () => {
      const calls: unknown[] = []
      const modules = {
        '@switchboard/sandbox': sandboxModule(calls),
        '@switchboard/sandbox/protocol': {
          startProtocolServer: async (options: { host: string; port: number }) => {
            calls.push(['startProtocolServer', options.host, options.port])
            return { url: 'ws://127.0.0.1:4567', mediaCertificate: 'CERT', close: async () => void calls.push(['wire.close']) }
          },
        },
        '@switchboard/core/baileys': {
          createBaileysDriver: (options: { socketUrl?: string; socketConfig?: { fetchAgent?: { options: { ca?: unknown } }; options?: { dispatcher?: unknown } } }) => {
            // The emulator's self-signed media host is trusted by this driver only.
            calls.push(['media trust', options.socketConfig?.fetchAgent?.options.ca, options.socketConfig?.options?.dispatcher !== undefined])
            calls.push(['createBaileysDriver', options.socketUrl])
            return driver('whatsapp')
          },
        },
      }
      const network = await loadNetwork(config('sandbox-wire'), deps(modules, calls))
      expect(network.driver.name).to.equal('whatsapp')
      expect(network.sandbox).not.to.equal(undefined)
      expect(calls).to.deep.include(['startProtocolServer', '127.0.0.1', 0])
      expect(calls).to.deep.include(['createBaileysDriver', 'ws://127.0.0.1:4567'])
      expect(calls).to.deep.include(['media trust', 'CERT', true])
      await network.close?.()
      expect(calls.slice(-2)).to.deep.equal([['wire.close'], ['sandbox.close']])
    })
  })
})
