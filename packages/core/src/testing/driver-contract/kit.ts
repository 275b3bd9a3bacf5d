/**
 * What the contract's tests share: the harness of the running test, a recorder of every driver
 * event, waits that advance the harness clock (or real time), and the skip rule.
 * @module
 */
import assert from 'node:assert/strict'
import { systemClock } from '../../kernel/clock.js'
import type { ConnectionUpdate, DriverEventName, DriverEvents, NetworkDriver } from '../../network/driver.js'
import type { InboundMessage, Jid, MessageRef, SentMessage } from '../../network/types.js'
import type { DriverCapability, DriverHarness, HarnessPeer, PeerMessage } from '../driver-harness.js'

export interface MochaContext {
  skip(): never
  test?: { title: string }
}
export type TestFn = (this: MochaContext) => Promise<void>
export interface MochaGlobals {
  describe(title: string, fn: () => void): void
  it(title: string, fn: TestFn): void
  beforeEach(fn: TestFn): void
  afterEach(fn: TestFn): void
}

const EVENT_NAMES = Object.keys({
  'connection.update': true,
  'message.received': true,
  'message.status': true,
  'message.reaction': true,
  'message.revoked': true,
  'message.edited': true,
  'group.participants': true,
  'group.update': true,
  call: true,
  'contacts.upsert': true,
  'chats.upsert': true,
  'identity.mapping': true,
} satisfies Record<DriverEventName, true>) as DriverEventName[]

type Recorded = { [E in DriverEventName]: { name: E; payload: DriverEvents[E] } }[DriverEventName]

/** Every event a driver emitted, in order. */
export class Recorder {
  readonly events: Recorded[] = []
  #off: (() => void)[] = []

  attach(driver: NetworkDriver): void {
    this.detach()
    for (const name of EVENT_NAMES) {
      this.#off.push(driver.on(name, (payload) => this.events.push({ name, payload } as Recorded)))
    }
  }

  detach(): void {
    for (const off of this.#off) off()
    this.#off = []
  }

  of<E extends DriverEventName>(name: E, sessionId?: string): DriverEvents[E][] {
    return this.events
      .filter((e) => e.name === name && (sessionId === undefined || e.payload.sessionId === sessionId))
      .map((e) => e.payload as DriverEvents[E])
  }

  /** Connection states of a session from the `from`-th update on, repeated QRs folded into one. */
  states(sessionId: string, from = 0): ConnectionUpdate['state'][] {
    const states = this.of('connection.update', sessionId)
      .slice(from)
      .map((u) => u.state)
    return states.filter((s, i) => !(s === 'qr' && states[i - 1] === 'qr'))
  }
}

/** Fake time advanced per step while waiting, and the most a wait may take. */
const FAKE_STEP_MS = 100
const FAKE_BUDGET_MS = 180_000
const REAL_STEP_MS = 5
const REAL_BUDGET_MS = 4_000

export class ContractKit {
  /** The harness of the running test (set before each test). */
  h!: DriverHarness
  rec!: Recorder
  #n = 0

  /** A fresh session id. */
  sid(): string {
    return `contract-${++this.#n}`
  }

  /** Lets `ms` pass on the harness clock, or in real time without one. */
  pause(ms: number): Promise<void> {
    return this.h.clock ? this.h.clock.tick(ms) : new Promise((resolve) => systemClock.setTimer(resolve, ms))
  }

  /** Waits until `find` returns a value, advancing the harness clock (or real time). */
  async until<T>(what: string, find: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
    const budget = this.h.clock ? FAKE_BUDGET_MS : REAL_BUDGET_MS
    const step = this.h.clock ? FAKE_STEP_MS : REAL_STEP_MS
    for (let waited = 0; ; waited += step) {
      const found = await find()
      if (found !== undefined && found !== false) return found
      if (waited >= budget) throw new assert.AssertionError({ message: `timed out waiting for ${what}` })
      await this.pause(step)
    }
  }

  /** The first update of `state` for the session from the `from`-th update on. */
  async update<S extends ConnectionUpdate['state']>(sessionId: string, state: S, from = 0): Promise<Extract<ConnectionUpdate, { state: S }>> {
    const found = await this.until(`${sessionId} to reach ${state}`, () =>
      this.rec.of('connection.update', sessionId).slice(from).find((u) => u.state === state),
    )
    return found as unknown as Extract<ConnectionUpdate, { state: S }>
  }

  async received(sessionId: string, id: string): Promise<InboundMessage> {
    const event = await this.until(`message ${id} to reach ${sessionId}`, () =>
      this.rec.of('message.received', sessionId).find((e) => e.message.id === id),
    )
    return event.message
  }

  status(sessionId: string, id: string, wanted: string): Promise<DriverEvents['message.status']> {
    return this.until(`status ${wanted} of ${id}`, () =>
      this.rec.of('message.status', sessionId).find((e) => e.messageId === id && e.status === wanted),
    )
  }

  inPeerInbox(peer: HarnessPeer, id: string, check: (m: PeerMessage) => boolean = () => true): Promise<PeerMessage> {
    return this.until(`message ${id} in ${peer.phone}'s inbox`, async () => (await peer.inbox()).find((m) => m.id === id && check(m)))
  }

  /** Skips the test (its title carrying the reason) unless the harness can do `cap` and has every `present` member. */
  need(ctx: MochaContext, cap: DriverCapability, ...present: unknown[]): void {
    const reason = this.h.unsupported?.[cap] ?? (present.some((p) => p === undefined) ? `harness has no ${cap}` : undefined)
    if (reason === undefined) return
    if (ctx.test) ctx.test.title += ` (skipped: ${reason})`
    ctx.skip()
  }

  refOf(m: SentMessage | InboundMessage, chatId: Jid, fromMe: boolean): MessageRef {
    return {
      id: m.id,
      chatId,
      fromMe,
      timestampSec: 'timestampSec' in m ? m.timestampSec : Math.floor(m.timestampMs / 1000),
      ...(m.raw === undefined ? {} : { raw: m.raw }),
    }
  }

  sendText(sessionId: string, to: Jid, text: string, quoted?: MessageRef): Promise<SentMessage> {
    return this.h.driver.send(sessionId, { to, content: { type: 'text', text }, ...(quoted ? { quoted } : {}) })
  }

  peer(): HarnessPeer {
    const first = this.h.peers[0]
    if (!first) throw new Error('the harness must give at least one peer')
    return first
  }

  meJid(): Jid {
    return `${this.h.me.phone}@s.whatsapp.net`
  }
}
