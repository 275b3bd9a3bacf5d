/**
 * Test harness: an emulator on a loopback port with an in-memory world, and unmodified Baileys
 * clients (`makeWASocket`) connected to it.
 */
import makeWASocket, {
  initAuthCreds,
  type AuthenticationCreds,
  type BaileysEventMap,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type WASocket,
} from '@whiskeysockets/baileys'
import { WaEmulator } from '../../src/doors/wire/emulator.js'
import { MemoryWireWorld } from '../../src/doors/wire/memory-world.js'
import { listenWire, type WireServer } from '../../src/doors/wire/server.js'
import { WireState } from '../../src/doors/wire/state.js'
import { applyTrustAnchor } from '../../src/doors/wire/trust-anchor.js'

import pino from 'pino'
import './baileys-timers.js'
import './quiet-libsignal.js'

const debugLogger = process.env.WIRE_DEBUG ? pino({ level: process.env.WIRE_DEBUG === 'trace' ? 'trace' : 'debug' }, pino.destination(2)) : undefined

export const silentBaileysLogger = {
  level: 'silent',
  child: () => silentBaileysLogger,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
} as never

export interface Harness {
  world: MemoryWireWorld
  emulator: WaEmulator
  server: WireServer
  state: WireState
  close(): Promise<void>
}

export async function startHarness(state = new WireState(), world = new MemoryWireWorld()): Promise<Harness> {
  const emulator = await WaEmulator.create({ world, state, codeWaitMs: 300, ...(debugLogger ? { logger: debugLogger.child({ side: 'server' }) as never } : {}) })
  world.emulator = emulator
  applyTrustAnchor(emulator.rootPublicKey)
  const server = await listenWire(emulator)
  return { world, emulator, server, state, close: () => server.close() }
}

export function memoryKeys(): SignalKeyStore & { data: Record<string, Record<string, unknown>> } {
  const data: Record<string, Record<string, unknown>> = {}
  return {
    data,
    get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const out: Record<string, SignalDataTypeMap[T]> = {}
      for (const id of ids) {
        const v = data[type]?.[id]
        if (v !== undefined && v !== null) out[id] = v as SignalDataTypeMap[T]
      }
      return out
    },
    set(d) {
      for (const [type, entries] of Object.entries(d)) {
        data[type] ??= {}
        for (const [id, v] of Object.entries(entries ?? {})) {
          if (v === null || v === undefined) delete data[type]![id]
          else data[type]![id] = v
        }
      }
    },
  }
}

type Recorded = { [K in keyof BaileysEventMap]: { event: K; data: BaileysEventMap[K] } }[keyof BaileysEventMap]

/** One Baileys client that reconnects like a gateway would: on 515 and network drops, not on 401/440. */
export class TestClient {
  sock!: WASocket
  readonly events: Recorded[] = []
  readonly closes: (number | undefined)[] = []
  readonly auth: { creds: AuthenticationCreds; keys: ReturnType<typeof memoryKeys> }
  stopped = false
  #waiters: (() => void)[] = []

  constructor(
    readonly url: string,
    creds: AuthenticationCreds = initAuthCreds(),
    keys = memoryKeys(),
    readonly extra: Partial<Parameters<typeof makeWASocket>[0]> = {},
  ) {
    this.auth = { creds, keys }
    this.connect()
  }

  connect(): void {
    const sock = makeWASocket({
      waWebSocketUrl: this.url,
      auth: this.auth,
      logger: debugLogger ? (debugLogger.child({ side: 'client' }) as never) : silentBaileysLogger,
      markOnlineOnConnect: false,
      shouldSyncHistoryMessage: () => false,
      ...this.extra,
    })
    this.sock = sock
    sock.ev.on('creds.update', (u) => Object.assign(this.auth.creds, u))
    const names: (keyof BaileysEventMap)[] = [
      'connection.update',
      'messages.upsert',
      'messages.update',
      'messages.reaction',
      'message-receipt.update',
      'presence.update',
      'messaging-history.set',
      'groups.upsert',
      'groups.update',
      'group-participants.update',
      'contacts.update',
    ]
    for (const name of names) {
      sock.ev.on(name, (data: never) => {
        this.events.push({ event: name, data } as Recorded)
        if (name === 'connection.update') this.#onConnection(sock, data as BaileysEventMap['connection.update'])
        this.#notify()
      })
    }
  }

  #onConnection(sock: WASocket, u: BaileysEventMap['connection.update']): void {
    if (u.connection !== 'close' || sock !== this.sock) return
    const code = (u.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode
    this.closes.push(code)
    if (this.stopped || code === 401 || code === 440 || code === 403) return
    this.connect()
  }

  #notify(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const w of waiters) w()
  }

  /** Resolves with the first recorded value `pick` returns (checking past and future events). */
  async waitFor<T>(pick: (events: Recorded[]) => T | undefined, what = 'event', timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = pick(this.events)
      if (found !== undefined) return found
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`timed out waiting for ${what}`)
      await new Promise<void>((resolve) => {
        // Also re-check now and then: some conditions watch the world, not the client's events.
        const t = setTimeout(resolve, Math.min(left, 25))
        this.#waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
  }

  qr(after = 0): Promise<string> {
    return this.waitFor((ev) => {
      for (const e of ev.slice(after)) if (e.event === 'connection.update' && e.data.qr) return e.data.qr
      return undefined
    }, 'qr')
  }

  /** Waits for `connection: 'open'` (the n-th one, counting from 1). */
  opened(n = 1): Promise<void> {
    return this.waitFor(
      (ev) => (ev.filter((e) => e.event === 'connection.update' && e.data.connection === 'open').length >= n ? true : undefined),
      `open #${n}`,
    ).then(() => undefined)
  }

  closedWith(code: number): Promise<void> {
    return this.waitFor(() => (this.closes.includes(code) ? true : undefined), `close ${code}`).then(() => undefined)
  }

  /**
   * Ends the client once its queries are answered: Baileys' `end()` drops the close listeners of
   * pending queries, which then hold the process for their 60-second timeout.
   */
  async stop(): Promise<void> {
    this.stopped = true
    const pending = () => (this.sock.ws as unknown as { eventNames(): unknown[] }).eventNames().some((n) => String(n).startsWith('TAG:'))
    for (let i = 0; i < 100 && pending(); i++) await new Promise((r) => setTimeout(r, 20))
    this.sock.end(undefined)
  }
}

/** Links a fresh client to `phone` by QR and waits until it is open. */
export async function linkedClient(h: Harness, phone: string, extra: TestClient['extra'] = {}): Promise<TestClient> {
  const client = new TestClient(h.server.url, undefined, undefined, extra)
  const qr = await client.qr()
  await h.emulator.scan(phone, qr)
  await client.opened()
  return client
}
