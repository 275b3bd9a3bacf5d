/**
 * `startWireSandbox()`: the sandbox with its second door, a loopback server that speaks the
 * WhatsApp Web protocol. Real Baileys clients (the production driver among them) connect to
 * `url`; the returned `sandbox` is the usual control surface, and it works on both kinds of
 * sessions: a QR or pairing code shown by a Baileys client links it through the wire.
 * @module
 */
import { hasErrorCode, openStore, silentLogger, systemClock } from '@switchboard/core'
import type { Clock, Logger, NewId, Store } from '@switchboard/core'
import { createSandbox } from '../../sandbox.js'
import type { AccountActions, Sandbox, SandboxOptions } from '../../sandbox-api.js'
import { WaEmulator } from './emulator.js'
import { MediaHost } from './media-host.js'
import { parseQr } from './pairing.js'
import { SandboxWireWorld, type SessionNamer } from './sandbox-world.js'
import { listenWire } from './server.js'
import { WireState } from './state.js'
import { applyTrustAnchor } from './trust-anchor.js'

/** Options of {@link startProtocolServer}. */
export interface ProtocolServerOptions {
  /** The sandbox whose world wire devices join (it must be loaded). */
  sandbox: Sandbox
  /**
   * Where the emulator keeps its keys, the linked devices and the phones' Signal sessions (a
   * `sandbox_wire` collection). Pass the service's store so devices log back in after a restart.
   * @default memory (lost with the process)
   */
  store?: Store
  /** @default 0 (a free port) */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  clock?: Clock
  logger?: Logger
  /** Names the session behind a newly linked device (see `SandboxWireWorldOptions.sessionIdFor`). */
  sessionIdFor?: SessionNamer
  /**
   * Makes this process's Baileys trust the emulator's root key (`applyTrustAnchor`). On by default:
   * this server exists for `SWITCHBOARD_NETWORK=sandbox-wire`, where the production driver runs in
   * the same process and must accept the emulator's certificate instead of WhatsApp's. Never start
   * it in a process that also talks to the real network.
   * @default true
   */
  trustAnchor?: boolean
  /**
   * Makes `sandbox`'s own controls (scan, link code, inbox, read, react, send, unlink, drop) aware
   * of wire devices, so a control API mounted over it works unchanged. The same controls are
   * returned as `sandbox` either way.
   * @default true
   */
  installControls?: boolean
}

export interface ProtocolServer {
  /** `ws://host:port/ws/chat`: Baileys' `waWebSocketUrl`. */
  url: string
  port: number
  /** The root key clients must trust (see `applyTrustAnchor`). */
  rootPublicKey: Buffer
  /**
   * PEM certificate of the loopback media host (self-signed). Clients of this mode trust it for
   * media, and only it: `socketConfig.fetchAgent = new https.Agent({ ca })` for uploads and
   * `socketConfig.options.dispatcher = new undici.Agent({ connect: { ca } })` for downloads.
   */
  mediaCertificate: string
  /** The sandbox's controls, aware of wire devices. */
  sandbox: Sandbox
  emulator: WaEmulator
  /** Stops the server (the sandbox stays open: its owner closes it). */
  close(): Promise<void>
}

/** Starts the WhatsApp-protocol door of a loaded sandbox on a loopback port. */
export async function startProtocolServer(options: ProtocolServerOptions): Promise<ProtocolServer> {
  const logger = options.logger ?? silentLogger
  const ownsStore = options.store === undefined
  const store = options.store ?? (await openStore('memory'))
  const state = new WireState(store.collection<string>('sandbox_wire'))
  const world = new SandboxWireWorld({
    sandbox: options.sandbox,
    state,
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sessionIdFor ? { sessionIdFor: options.sessionIdFor } : {}),
  })
  const media = await MediaHost.listen((options.clock ?? systemClock).now(), options.host ?? '127.0.0.1')
  const emulator = await WaEmulator.create({ world, state, logger, media, ...(options.clock ? { clock: options.clock } : {}) })
  world.attach(emulator)
  if (options.trustAnchor !== false) applyTrustAnchor(emulator.rootPublicKey)
  const server = await listenWire(emulator, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    host: options.host ?? '127.0.0.1',
  })
  const controls = wireAware(options.sandbox, emulator, world)
  if (options.installControls !== false) install(options.sandbox, controls)
  logger.info({ url: server.url }, 'sandbox WhatsApp-protocol door listening')
  return {
    url: server.url,
    port: server.port,
    rootPublicKey: emulator.rootPublicKey,
    mediaCertificate: media.certificate,
    sandbox: controls,
    emulator,
    async close() {
      await server.close()
      await media.close()
      world.detach()
      if (ownsStore) await store.close()
    },
  }
}

export interface WireSandboxOptions extends Omit<ProtocolServerOptions, 'sandbox' | 'installControls'> {
  newId?: NewId
  /** Other sandbox settings (the in-process delays are zero behind the wire: the wire has its own). */
  sandbox?: Omit<SandboxOptions, 'store' | 'clock' | 'newId' | 'logger'>
}

export interface WireSandbox extends ProtocolServer {
  /** Closes the server, the sandbox and (when it made it) the store. */
  close(): Promise<void>
}

/**
 * Starts a sandbox and its WhatsApp-protocol door together. Real Baileys clients (the production
 * driver among them) connect to `url`; `sandbox` is the control surface over both doors.
 */
export async function startWireSandbox(options: WireSandboxOptions = {}): Promise<WireSandbox> {
  const ownsStore = options.store === undefined
  const store = options.store ?? (await openStore('memory'))
  const logger = options.logger ?? silentLogger
  const inner = createSandbox({
    qrDelayMs: 0,
    connectDelayMs: 0,
    ...options.sandbox,
    store,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.newId ? { newId: options.newId } : {}),
    logger,
  })
  await inner.load()
  const { sandbox: _settings, newId: _newId, ...serverOptions } = options
  const server = await startProtocolServer({ ...serverOptions, store, logger, sandbox: inner, installControls: false })
  return {
    ...server,
    async close() {
      await server.close()
      await inner.close()
      if (ownsStore) await store.close()
    },
  }
}

/** The controls `wireAware` changes, installed on the sandbox instance itself. */
const WIRE_CONTROLS = ['scan', 'enterCode', 'sendAs', 'inbox', 'read', 'react', 'unlink', 'drop', 'as'] as const

function install(target: Sandbox, controls: Sandbox): void {
  for (const name of WIRE_CONTROLS) Object.defineProperty(target, name, { value: controls[name], configurable: true, writable: true })
}

/**
 * The sandbox's controls, aware of wire devices: scans and codes shown by Baileys clients link
 * them through the emulator, drops cut their sockets, and message ids are the ones the senders
 * chose (a Baileys client picks its own).
 */
function wireAware(sandbox: Sandbox, emulator: WaEmulator, world: SandboxWireWorld): Sandbox {
  // The originals, bound now: `install` may replace them on the instance afterwards.
  const inner = {
    load: sandbox.load.bind(sandbox),
    driver: sandbox.driver.bind(sandbox),
    accounts: sandbox.accounts,
    scan: sandbox.scan.bind(sandbox),
    enterCode: sandbox.enterCode.bind(sandbox),
    sendAs: sandbox.sendAs.bind(sandbox),
    inbox: sandbox.inbox.bind(sandbox),
    read: sandbox.read.bind(sandbox),
    react: sandbox.react.bind(sandbox),
    unlink: sandbox.unlink.bind(sandbox),
    drop: sandbox.drop.bind(sandbox),
    as: sandbox.as.bind(sandbox),
    call: sandbox.call.bind(sandbox),
    presence: sandbox.presence.bind(sandbox),
    chats: sandbox.chats.bind(sandbox),
    groups: sandbox.groups.bind(sandbox),
    links: sandbox.links.bind(sandbox),
    failNext: sandbox.failNext.bind(sandbox),
    clearFaults: sandbox.clearFaults.bind(sandbox),
    close: sandbox.close.bind(sandbox),
  }
  const ids = world.ids
  const toWorld = (id: string) => ids.toWorld(id)
  const asWire = (phone: string): AccountActions => {
    const actions = inner.as(phone)
    return {
      ...actions,
      message: async (op) => actions.message({ ...op, message: { ...op.message, id: await toWorld(op.message.id) } } as never),
    }
  }
  return {
    load: () => inner.load(),
    driver: () => inner.driver(),
    accounts: inner.accounts,
    async scan(phone, qr) {
      if (!parseQr(qr)) return inner.scan(phone, qr)
      const device = await emulator.scan(phone, qr)
      return { sessionId: device.label ?? '' }
    },
    async enterCode(phone, code) {
      // A code shown by a Baileys client is unknown to the world until its phone has typed it.
      if (!emulator.awaitsCode(phone)) {
        try {
          return await inner.enterCode(phone, code)
        } catch (err) {
          if (!hasErrorCode(err, 'SANDBOX_CODE_INVALID')) throw err
        }
      }
      const device = await emulator.enterPairingCode(phone, code)
      return { sessionId: device.label ?? '' }
    },
    async sendAs(phone, input) {
      return inner.sendAs(phone, input.quotedMessageId === undefined ? input : { ...input, quotedMessageId: await toWorld(input.quotedMessageId) })
    },
    async inbox(phone) {
      const messages = await inner.inbox(phone)
      return Promise.all(
        messages.map(async (m) => ({
          ...m,
          id: await ids.toWire(m.id),
          ...(m.quotedMessageId === undefined ? {} : { quotedMessageId: await ids.toWire(m.quotedMessageId) }),
        })),
      )
    },
    async read(phone, chatId, messageIds) {
      return inner.read(phone, chatId, await Promise.all(messageIds.map(toWorld)))
    },
    async react(phone, input) {
      return inner.react(phone, { ...input, messageId: await toWorld(input.messageId) })
    },
    async unlink(phone, sessionId) {
      await inner.unlink(phone, sessionId)
      await world.idle()
    },
    async drop(sessionId) {
      const device = (await emulator.linkedDevices()).find((d) => d.label === sessionId)
      if (device && emulator.drop(device.phone, device.deviceId)) return
      return inner.drop(sessionId)
    },
    as: asWire,
    call: (phone, input) => inner.call(phone, input),
    presence: (phone) => inner.presence(phone),
    chats: (phone) => inner.chats(phone),
    groups: (phone) => inner.groups(phone),
    links: (phone) => inner.links(phone),
    failNext: (op, error, opts) => inner.failNext(op, error, opts),
    clearFaults: () => inner.clearFaults(),
    close: () => inner.close(),
  }
}
