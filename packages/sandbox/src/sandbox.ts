/**
 * `createSandbox()`: the simulated network with its in-process door and its controls. The
 * controls mirror the control API one to one (`accounts.create`, `scan`, `enterCode`, `sendAs`,
 * `inbox`, `read`, `react`, `unlink`, `drop`), plus a few extras for scenarios the API does not
 * reach yet and test-only faults.
 * @module
 */
import { GatewayError, normalizeChatId, normalizeRecipient, parsePhone, randomId, silentLogger, systemClock } from '@switchboard/core'
import type { ChatInfo, GroupInfo, NetworkDriver, OutboundContent, TimerHandle } from '@switchboard/core'
import { SandboxDriver } from './doors/driver/sandbox-driver.js'
import { runChatOp, runContactOp, runGroupOp, runMessageOp, runProfileOp } from './doors/port-ops.js'
import { Faults, type FaultOp, type FaultOptions } from './faults.js'
import { WorldStore } from './persistence/world-store.js'
import { Runtime, type SandboxTimings } from './runtime.js'
import type { AccountActions, Sandbox, SandboxAccount, SandboxLink, SandboxOptions, SendAsInput } from './sandbox-api.js'
import type { PresenceRecord } from './world/chats.js'
import type { AccountRecord } from './world/records.js'
import type { InboxMessage } from './world/views.js'
import { World } from './world/world.js'

/** Builds a sandbox over `options.store`; `await sandbox.load()` before use. */
export function createSandbox(options: SandboxOptions): Sandbox {
  return new SandboxImpl(options)
}

class SandboxImpl implements Sandbox {
  readonly #options: SandboxOptions
  readonly #faults = new Faults()
  readonly #rings = new Set<TimerHandle>()
  #loaded: { rt: Runtime; driver: SandboxDriver } | undefined

  constructor(options: SandboxOptions) {
    this.#options = options
  }

  readonly accounts: Sandbox['accounts'] = {
    create: async (input) => {
      const account = this.#world.accounts.create(input)
      await this.#commit()
      return this.#view(account)
    },
    list: async () => this.#world.accounts.list().map((a) => this.#view(a)),
    get: async (phone) => this.#view(this.#world.accounts.get(this.#phone(phone))),
    update: async (phone, changes) => {
      const account = this.#world.accounts.update(this.#phone(phone), changes)
      await this.#commit()
      return this.#view(account)
    },
  }

  async load(): Promise<void> {
    if (this.#loaded) return
    const o = this.#options
    const clock = o.clock ?? systemClock
    const newId = o.newId ?? randomId
    const store = new WorldStore(o.store)
    const world = new World(await store.load(), { clock, newId })
    const timings: SandboxTimings = {
      qrDelayMs: o.qrDelayMs ?? 1000,
      connectDelayMs: o.connectDelayMs ?? 200,
      qrRotateMs: o.qrRotateMs ?? 60_000,
      qrTtlMs: o.qrTtlMs ?? 60_000,
      codeTtlMs: o.codeTtlMs ?? 60_000,
      ringMs: o.ringMs ?? 45_000,
    }
    const rt = new Runtime(world, store, clock, newId, o.logger ?? silentLogger, timings, this.#faults)
    this.#loaded = { rt, driver: new SandboxDriver(rt) }
  }

  driver(): NetworkDriver {
    return this.#door
  }

  async scan(phone: string, qr: string): Promise<{ sessionId: string }> {
    const link = this.#world.links.scan(this.#phone(phone), qr)
    await this.#commit()
    return { sessionId: link.sessionId }
  }

  async enterCode(phone: string, code: string): Promise<{ sessionId: string }> {
    const link = this.#world.links.enterCode(this.#phone(phone), code)
    await this.#commit()
    return { sessionId: link.sessionId }
  }

  async sendAs(phone: string, input: SendAsInput): Promise<{ messageId: string }> {
    const from = this.#phone(phone)
    const to = normalizeRecipient(input.to)
    const content: OutboundContent | undefined = input.content ?? (input.text === undefined ? undefined : { type: 'text', text: input.text })
    if (!content) throw new GatewayError('VALIDATION_FAILED', { reason: 'text is required' })
    if (input.quotedMessageId !== undefined) this.#world.messages.find(from, { id: input.quotedMessageId, chatId: to })
    const message = this.#world.messages.send(from, {
      to,
      content,
      ...(input.quotedMessageId === undefined ? {} : { quotedId: input.quotedMessageId }),
    })
    await this.#commit()
    return { messageId: message.id }
  }

  async inbox(phone: string): Promise<InboxMessage[]> {
    return this.#world.messages.inbox(this.#phone(phone))
  }

  async read(phone: string, chatId: string, messageIds: readonly string[]): Promise<void> {
    const reader = this.#phone(phone)
    const chat = normalizeChatId(chatId)
    this.#world.actions.read(reader, chat, messageIds, { strict: true })
    this.#world.chats.markRead(reader, chat)
    await this.#commit()
  }

  async react(phone: string, input: { chatId: string; messageId: string; emoji: string }): Promise<void> {
    this.#world.actions.react(this.#phone(phone), { id: input.messageId, chatId: normalizeChatId(input.chatId) }, input.emoji)
    await this.#commit()
  }

  async unlink(phone: string, sessionId: string): Promise<void> {
    this.#world.links.unlink(this.#phone(phone), sessionId)
    await this.#commit()
    await this.#door.idle()
  }

  async drop(sessionId: string): Promise<void> {
    this.#door.drop(sessionId)
  }

  as(phone: string): AccountActions {
    const actor = { phone: this.#phone(phone) }
    const run = async <R>(fn: () => R): Promise<R> => {
      const result = fn()
      await this.#commit()
      return result
    }
    const world = this.#world
    return {
      message: (op) => run(() => runMessageOp(world, actor, op) as never),
      chat: (op) => run(() => runChatOp(world, actor, op) as never),
      group: (op) => run(() => runGroupOp(world, actor, op) as never),
      profile: (op) => run(() => runProfileOp(world, actor, op) as never),
      contact: (op) => run(() => runContactOp(world, actor, op) as never),
      joinGroup: (code) => run(() => world.groups.join(actor.phone, code)),
    }
  }

  async call(phone: string, input: { to: string; isVideo?: boolean }): Promise<{ callId: string }> {
    const rt = this.#runtime
    const callId = rt.world.calls.offer(this.#phone(phone), normalizeRecipient(input.to), input.isVideo ?? false)
    await this.#commit()
    const timer = rt.clock.setTimer(() => {
      this.#rings.delete(timer)
      rt.world.calls.end(callId, 'timeout')
      this.#commit().catch((err: unknown) => rt.logger.error({ err, callId }, 'sandbox call timeout failed'))
    }, rt.timings.ringMs)
    this.#rings.add(timer)
    return { callId }
  }

  async presence(phone: string): Promise<PresenceRecord[]> {
    return this.#world.chats.presencesFor(this.#phone(phone))
  }

  async chats(phone: string): Promise<ChatInfo[]> {
    return this.#world.chats.list(this.#phone(phone))
  }

  async groups(phone: string): Promise<GroupInfo[]> {
    return this.#world.groups.of(this.#phone(phone))
  }

  async links(phone?: string): Promise<SandboxLink[]> {
    const links = this.#world.links.list(phone === undefined ? undefined : this.#phone(phone))
    return links.map((link) => ({
      sessionId: link.sessionId,
      phoneNumber: link.phone,
      deviceId: link.deviceId,
      method: link.method,
      linkedAtMs: link.linkedAtMs,
      online: this.#world.links.isOnline(link.sessionId),
    }))
  }

  failNext(op: FaultOp, error?: Error, options?: FaultOptions): void {
    this.#faults.failNext(op, error, options)
  }

  clearFaults(): void {
    this.#faults.clear()
  }

  async close(): Promise<void> {
    if (!this.#loaded) return
    const { rt, driver } = this.#loaded
    for (const timer of this.#rings) rt.clock.clearTimer(timer)
    this.#rings.clear()
    await driver.shutdown()
    driver.detach()
    await rt.store.idle()
  }

  get #runtime(): Runtime {
    return this.#state.rt
  }

  get #state(): { rt: Runtime; driver: SandboxDriver } {
    if (!this.#loaded) throw new Error('The sandbox is not loaded: call `await sandbox.load()` first')
    return this.#loaded
  }

  get #world(): World {
    return this.#runtime.world
  }

  get #door(): SandboxDriver {
    return this.#state.driver
  }

  #commit(): Promise<void> {
    return this.#runtime.commit()
  }

  /** Digits of an existing account: `Invalid phone number format`, `Account not found`. */
  #phone(input: string): string {
    const phone = parsePhone(input)
    if (phone === undefined) throw new GatewayError('INVALID_PHONE_NUMBER')
    this.#world.accounts.get(phone)
    return phone
  }

  #view(account: AccountRecord): SandboxAccount {
    return {
      phoneNumber: account.phone,
      jid: account.jid,
      lid: account.lid,
      name: account.name,
      about: account.about,
      sessions: this.#world.links.list(account.phone).map((link) => link.sessionId),
    }
  }
}
