/**
 * A fresh sandbox per test: memory store, test clock, sequential ids, and a log of every driver
 * event. `link()` takes a session from open to `open` by QR.
 */
import { sequentialIds } from '@switchboard/core'
import type { ConnectionUpdate, DriverEventName, DriverEvents, Me, NetworkDriver } from '@switchboard/core'
import { createTestClock } from '@switchboard/core/testing'
import type { TestClock } from '@switchboard/core/testing'
import { createSandbox } from '../../src/index.js'
import type { Sandbox, SandboxOptions } from '../../src/index.js'
import { MemoryAuthStore, MemoryStore } from './memory-store.js'

const NAMES: DriverEventName[] = [
  'connection.update',
  'message.received',
  'message.status',
  'message.reaction',
  'message.revoked',
  'message.edited',
  'group.participants',
  'group.update',
  'call',
  'contacts.upsert',
  'chats.upsert',
  'identity.mapping',
]

type Logged = { [E in DriverEventName]: { name: E; payload: DriverEvents[E] } }[DriverEventName]

export class EventLog {
  readonly all: Logged[] = []
  #off: (() => void)[] = []

  constructor(driver: NetworkDriver) {
    this.attach(driver)
  }

  attach(driver: NetworkDriver): void {
    for (const off of this.#off) off()
    this.#off = NAMES.map((name) => driver.on(name, (payload) => this.all.push({ name, payload } as Logged)))
  }

  of<E extends DriverEventName>(name: E, sessionId?: string): DriverEvents[E][] {
    return this.all.filter((e) => e.name === name && (sessionId === undefined || e.payload.sessionId === sessionId)).map((e) => e.payload as DriverEvents[E])
  }

  updates(sessionId: string): ({ sessionId: string } & ConnectionUpdate)[] {
    return this.of('connection.update', sessionId)
  }

  states(sessionId: string): string[] {
    return this.updates(sessionId).map((u) => u.state)
  }

  lastQr(sessionId: string): string {
    const qr = this.updates(sessionId).filter((u) => u.state === 'qr').at(-1)
    if (!qr || qr.state !== 'qr') throw new Error(`no QR for ${sessionId}`)
    return qr.qr
  }

  clear(): void {
    this.all.length = 0
  }
}

export const A = '15550001111'
export const B = '15550002222'
export const C = '15550003333'
export const NOBODY = '15550009999'
export const jid = (phone: string): string => `${phone}@s.whatsapp.net`

export interface Setup {
  store: MemoryStore
  clock: TestClock
  sandbox: Sandbox
  driver: NetworkDriver
  events: EventLog
  auths: Map<string, MemoryAuthStore>
  auth(sessionId: string): MemoryAuthStore
  /** Opens `sessionId`, shows the QR, has `phone` scan it and waits for `open`. */
  link(sessionId: string, phone?: string): Promise<Me>
  /** A new sandbox over the same store, clock, ids and auth stores. */
  restart(): Promise<void>
}

/** Accounts A, B and C exist unless `accounts` says otherwise. */
export async function setup(options: Partial<SandboxOptions> & { accounts?: string[] } = {}): Promise<Setup> {
  const { accounts = [A, B, C], ...rest } = options
  const store = (rest.store as MemoryStore | undefined) ?? new MemoryStore()
  const clock = createTestClock()
  const newId = sequentialIds('t')
  const make = async (): Promise<Sandbox> => {
    const s = createSandbox({ clock, newId, ...rest, store })
    await s.load()
    return s
  }
  const sandbox = await make()
  for (const phoneNumber of accounts) await sandbox.accounts.create({ phoneNumber })
  const auths = new Map<string, MemoryAuthStore>()
  const t: Setup = {
    store,
    clock,
    sandbox,
    driver: sandbox.driver(),
    events: new EventLog(sandbox.driver()),
    auths,
    auth(sessionId) {
      let auth = auths.get(sessionId)
      if (!auth) auths.set(sessionId, (auth = new MemoryAuthStore()))
      return auth
    },
    async link(sessionId, phone = A) {
      await t.driver.open(sessionId, { auth: t.auth(sessionId) })
      await clock.tick(rest.qrDelayMs ?? 1000)
      await t.sandbox.scan(phone, t.events.lastQr(sessionId))
      await clock.tick(rest.connectDelayMs ?? 200)
      const open = t.events.updates(sessionId).filter((u) => u.state === 'open').at(-1)
      if (!open || open.state !== 'open') throw new Error(`${sessionId} did not open: ${t.events.states(sessionId).join(', ')}`)
      return open.me
    },
    async restart() {
      await t.sandbox.close()
      t.sandbox = await make()
      t.driver = t.sandbox.driver()
      t.events.attach(t.driver)
    },
  }
  return t
}

/** Runs `fn` and returns the GatewayError-like error it threw (fails when nothing was thrown). */
export async function caught(fn: () => unknown): Promise<{ code: string; message: string; status: number; details?: unknown }> {
  try {
    await fn()
  } catch (err) {
    return err as { code: string; message: string; status: number }
  }
  throw new Error('expected an error')
}
