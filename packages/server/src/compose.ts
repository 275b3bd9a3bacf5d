/**
 * The composition of a running server from its parts: store → network → gateway → app → listener,
 * and the reverse on close. start-server.ts supplies the real parts; tests may supply fakes.
 * @module
 */
import { mkdir } from 'node:fs/promises'
import { silentLogger, systemClock } from '@switchboard/core'
import type { Clock, Logger, NetworkDriver, NewId, OperationTable, Store } from '@switchboard/core'
import { createApp } from './app.js'
import type { ServerConfig } from './config.js'
import type { HttpGateway } from './gateway-port.js'
import { listen } from './http-server.js'
import type { LoadedNetwork, NetworkDeps } from './network.js'
import type { RouteTable } from './route-spec.js'

/** What the server needs of the gateway it builds. */
export interface ServedGateway extends HttpGateway {
  start(): Promise<void>
  /** Stops its rooms and closes the network connections (the server closes the store afterwards). */
  close(): Promise<void>
  /** The master admin key, when this start generated it (first start without SWITCHBOARD_ADMIN_KEY). */
  readonly generatedAdminKey?: string | undefined
}

/** What a test may inject into the gateway and the sandbox. */
export interface StartOptions {
  /** @default systemClock */
  clock?: Clock
  /** @default silentLogger */
  logger?: Logger
  newId?: NewId
  /** Outbound HTTP of the gateway (webhooks, media URLs). */
  fetch?: typeof globalThis.fetch
  /** How long close() lets in-flight requests run. @default 10000 */
  graceMs?: number
  /**
   * Called as soon as the gateway generated the master admin key, before listening, so that the key
   * is shown even if the start fails afterwards (it is stored hashed and never shown again).
   */
  onGeneratedAdminKey?: (key: string) => void
}

export interface GatewayParts {
  store: Store
  network: NetworkDriver
  clock: Clock
  logger: Logger
  newId?: NewId
  fetch?: typeof globalThis.fetch
}

export interface ServerParts<G extends ServedGateway> {
  openStore(uri: string): Promise<Store>
  loadNetwork(config: ServerConfig, deps: NetworkDeps): Promise<LoadedNetwork>
  createGateway(config: ServerConfig, parts: GatewayParts): G | Promise<G>
  operations: OperationTable<G>
  routes: RouteTable
}

export interface RunningServer<G extends ServedGateway = ServedGateway> {
  /** `http://HOST:PORT` with the bound port. */
  url: string
  port: number
  gateway: G
  /** The sandbox (its control target) on the sandbox networks. */
  sandbox?: unknown
  /** Set when this start generated the master admin key: print it once. */
  generatedAdminKey?: string
  /** Stops accepting, finishes in-flight requests, closes the gateway, the network door and the store. Idempotent. */
  close(): Promise<void>
}

/** Builds, starts and serves; on failure releases whatever was already open and rethrows. */
export async function composeServer<G extends ServedGateway>(
  config: ServerConfig,
  parts: ServerParts<G>,
  options: StartOptions = {},
): Promise<RunningServer<G>> {
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? silentLogger
  await mkdir(config.dataDir, { recursive: true })
  await mkdir(config.mediaDir, { recursive: true })

  const store = await parts.openStore(config.store)
  let network: LoadedNetwork | undefined
  let gateway: G | undefined
  // Each part is released by whoever opened it: the gateway its rooms, the network its door, we the store.
  const release = async (): Promise<void> => {
    const logFailure = (err: unknown): void => logger.error({ err }, 'close failed')
    await gateway?.close().catch(logFailure)
    await network?.close?.().catch(logFailure)
    await store.close().catch(logFailure)
  }
  try {
    network = await parts.loadNetwork(config, { store, clock, logger })
    const gatewayParts: GatewayParts = { store, network: network.driver, clock, logger }
    if (options.newId !== undefined) gatewayParts.newId = options.newId
    if (options.fetch !== undefined) gatewayParts.fetch = options.fetch
    gateway = await parts.createGateway(config, gatewayParts)
    const served = gateway
    network.bindSessions?.((link) => served.sessionForLink?.(link))
    if (gateway.generatedAdminKey !== undefined) options.onGeneratedAdminKey?.(gateway.generatedAdminKey)
    await gateway.start()
    const app = createApp({
      gateway,
      api: { target: gateway, operations: parts.operations, routes: parts.routes },
      ...(network.sandbox === undefined ? {} : { sandbox: network.sandbox }),
      logger,
      config,
      clock,
    })
    const grace = options.graceMs === undefined ? {} : { graceMs: options.graceMs }
    const listening = await listen(app, { port: config.port, host: config.host, ...grace })
    let closing: Promise<void> | undefined
    const running: RunningServer<G> = {
      url: listening.url,
      port: listening.port,
      gateway,
      close: () =>
        (closing ??= (async () => {
          await listening.close()
          await release()
        })()),
    }
    if (network.sandbox !== undefined) running.sandbox = network.sandbox.target
    if (gateway.generatedAdminKey !== undefined) running.generatedAdminKey = gateway.generatedAdminKey
    return running
  } catch (err) {
    await release()
    throw err
  }
}
