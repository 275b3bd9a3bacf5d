/**
 * Chooses and builds the network driver for SWITCHBOARD_NETWORK. Every door is loaded on demand:
 * a sandbox run never loads Baileys, a WhatsApp run never loads the sandbox.
 * @module
 */
import { Agent as HttpsAgent } from 'node:https'
import type { Clock, Logger, NetworkDriver, Store } from '@switchboard/core'
import { Agent as UndiciAgent } from 'undici'
import type { ServerConfig } from './config.js'
import type { Surface } from './route-spec.js'

type SandboxModule = typeof import('@switchboard/sandbox')

/** The Baileys door (it may be absent from a build, so it is loaded and checked at run time). */
type BaileysModule = Pick<typeof import('@switchboard/core/baileys'), 'createBaileysDriver'>

/** The sandbox's WhatsApp-protocol door, as far as the server uses it (it may be absent from a build). */
interface ProtocolModule {
  startProtocolServer(options: {
    sandbox: unknown
    store: Store
    host: string
    port: number
    logger: Logger
    sessionIdFor: (link: { qr?: string | undefined; code?: string | undefined }) => string | undefined
  }): Promise<{ url: string; mediaCertificate?: string | Buffer; close(): Promise<void> }>
}

export interface LoadedNetwork {
  driver: NetworkDriver
  /** The sandbox control API, on the sandbox networks. */
  sandbox?: Surface
  /** Releases what the gateway does not own: the sandbox (timers, pending writes), the protocol door. */
  close?: () => Promise<void>
  /**
   * Tells the door which gateway session a link belongs to (the protocol door links Baileys
   * devices itself and names their sessions with it). Called once the gateway exists.
   */
  bindSessions?: (find: SessionFinder) => void
}

export type SessionFinder = (link: { qr?: string | undefined; code?: string | undefined }) => string | undefined

export interface NetworkDeps {
  store: Store
  clock: Clock
  logger: Logger
  /** @default (specifier) => import(specifier) */
  importModule?: (specifier: string) => Promise<unknown>
}

/** The chosen door cannot be loaded; main prints the message and exits 1. */
export class NetworkUnavailableError extends Error {
  override name = 'NetworkUnavailableError'
}

export const WHATSAPP_UNAVAILABLE = 'The WhatsApp driver is not available in this build; use SWITCHBOARD_NETWORK=sandbox'
export const WIRE_UNAVAILABLE = 'The sandbox wire protocol is not available in this build; use SWITCHBOARD_NETWORK=sandbox'

export async function loadNetwork(config: ServerConfig, deps: NetworkDeps): Promise<LoadedNetwork> {
  const importModule = deps.importModule ?? ((specifier: string) => import(specifier))
  if (config.network === 'whatsapp') {
    const baileys = await loadBaileys(importModule)
    return { driver: baileys.createBaileysDriver({ clock: deps.clock, logger: deps.logger, browser: config.baileysBrowser }) }
  }
  // The wire doors are checked before the world is built, so a missing one leaves nothing open.
  const wired =
    config.network === 'sandbox-wire'
      ? {
          protocol: await need<ProtocolModule>(importModule, '@switchboard/sandbox/protocol', 'startProtocolServer', WIRE_UNAVAILABLE),
          baileys: await loadBaileys(importModule),
        }
      : undefined
  const pkg = (await importModule('@switchboard/sandbox')) as SandboxModule
  const sandbox = pkg.createSandbox({
    store: deps.store,
    clock: deps.clock,
    logger: deps.logger,
    // On the wire the real protocol sets the pace; the in-process delays would only add to it.
    qrDelayMs: wired ? 0 : config.sandboxQrDelayMs,
    connectDelayMs: wired ? 0 : config.sandboxConnectDelayMs,
  })
  await sandbox.load()
  const surface: Surface = { target: sandbox, operations: pkg.SANDBOX_OPERATIONS, routes: pkg.SANDBOX_ROUTES }
  if (wired === undefined) return { driver: sandbox.driver(), sandbox: surface, close: () => sandbox.close() }

  let find: SessionFinder | undefined
  const wire = await wired.protocol.startProtocolServer({
    sandbox,
    store: deps.store,
    host: '127.0.0.1',
    port: 0,
    logger: deps.logger,
    // A device linked on the wire backs the gateway session that showed the QR or asked for the code.
    sessionIdFor: (link) => find?.(link),
  })
  const driver = wired.baileys.createBaileysDriver({
    clock: deps.clock,
    logger: deps.logger,
    browser: config.baileysBrowser,
    socketUrl: wire.url,
    ...(wire.mediaCertificate === undefined ? {} : { socketConfig: trustMediaHost(wire.mediaCertificate) }),
  })
  const close = async (): Promise<void> => {
    await wire.close()
    await sandbox.close()
  }
  return { driver, sandbox: surface, close, bindSessions: (f) => void (find = f) }
}

/**
 * The emulator's media host has a self-signed certificate. Only in this mode, and only for the
 * driver's own uploads (an https agent) and downloads (a fetch dispatcher), is it trusted; no
 * process-wide TLS setting changes.
 */
function trustMediaHost(ca: string | Buffer) {
  return {
    fetchAgent: new HttpsAgent({ ca }),
    options: { dispatcher: new UndiciAgent({ connect: { ca } }) },
  } as unknown as NonNullable<Parameters<BaileysModule['createBaileysDriver']>[0]['socketConfig']>
}

type Importer = (specifier: string) => Promise<unknown>

const loadBaileys = (importModule: Importer): Promise<BaileysModule> =>
  need<BaileysModule>(importModule, '@switchboard/core/baileys', 'createBaileysDriver', WHATSAPP_UNAVAILABLE)

/** Imports `specifier` and checks that it exports the function `name`; else NetworkUnavailableError(message). */
async function need<M>(importModule: Importer, specifier: string, name: string, message: string): Promise<M> {
  let mod: unknown
  try {
    mod = await importModule(specifier)
  } catch (err) {
    if (!isModuleNotFound(err)) throw err
    throw new NetworkUnavailableError(message, { cause: err })
  }
  if (typeof (mod as Record<string, unknown> | null)?.[name] !== 'function') throw new NetworkUnavailableError(message)
  return mod as M
}

function isModuleNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || code === 'MODULE_NOT_FOUND'
}
