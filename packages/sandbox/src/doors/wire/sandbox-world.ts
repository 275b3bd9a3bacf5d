/**
 * The protocol door on the sandbox world. Each wire device (a Baileys client linked through the
 * emulator) is backed by one session of the sandbox's in-process door, with the same id: the
 * device's actions become that session's operations, and what the world tells that session
 * becomes stanzas for the device. So both doors share one world (accounts, links, messages,
 * groups), and the world needs nothing new.
 * @module
 */
import { GatewayError, hasErrorCode, phoneOfJid, silentLogger, systemClock, userJid } from '@switchboard/core'
import type { Clock, ConnectionUpdate, DriverEvents, GroupInfo, Logger, NetworkDriver } from '@switchboard/core'
import type { Sandbox } from '../../sandbox-api.js'
import { bridgeAuth } from './bridge-auth.js'
import type { WaEmulator } from './emulator.js'
import { IdMap } from './id-map.js'
import { applyDeviceEvent, relayNotice, type Bridge } from './bridge-relay.js'
import type { WireState } from './state.js'
import type { LinkRequest, WireAccount, WireDevice, WireEvent, WireGroup, WireGroups, WireSetting, WireWorld } from './wire-world.js'

/** How the door names the session behind a new device. */
export type SessionNamer = (request: LinkRequest) => string | undefined | Promise<string | undefined>

export interface SandboxWireWorldOptions {
  /** The sandbox whose world the devices join (its in-process door backs them). */
  sandbox: Sandbox
  state: WireState
  /**
   * Names the session of a newly linked device. The server passes one that finds the gateway
   * session showing the scanned QR (or that asked for the code), so both sides use the same id.
   * @default `wire-<phone>-<n>`
   */
  sessionIdFor?: SessionNamer
  logger?: Logger
  /** @default systemClock */
  clock?: Clock
}

const STATE_WAIT_MS = 10_000

type SessionState = ConnectionUpdate['state']

/** A {@link WireWorld} over a sandbox, through its in-process door. */
export class SandboxWireWorld implements WireWorld {
  /** The sandbox's own controls, bound at construction (its instance may get wire-aware ones later). */
  readonly #sandbox: Pick<Sandbox, 'accounts' | 'scan' | 'enterCode' | 'links' | 'inbox' | 'groups'>
  readonly #driver: NetworkDriver
  readonly #state: WireState
  readonly #ids: IdMap
  readonly #namer: SessionNamer | undefined
  readonly #logger: Logger
  readonly #clock: Clock
  readonly #sessions = new Map<string, { state: SessionState; qr?: string; phone?: string }>()
  readonly #waiters = new Set<() => void>()
  /** Message senders by world id, for edits and revokes whose notice does not say who did it. */
  readonly #senders = new Map<string, string>()
  #serial: Promise<unknown> = Promise.resolve()
  #emulator: WaEmulator | undefined
  readonly #off: (() => void)[] = []

  constructor(opts: SandboxWireWorldOptions) {
    const sb = opts.sandbox
    this.#sandbox = {
      accounts: sb.accounts,
      scan: sb.scan.bind(sb),
      enterCode: sb.enterCode.bind(sb),
      links: sb.links.bind(sb),
      inbox: sb.inbox.bind(sb),
      groups: sb.groups.bind(sb),
    }
    this.#driver = opts.sandbox.driver()
    this.#state = opts.state
    this.#ids = new IdMap(opts.state)
    this.#namer = opts.sessionIdFor
    this.#logger = opts.logger ?? silentLogger
    this.#clock = opts.clock ?? systemClock
    this.#off.push(this.#driver.on('connection.update', (u) => this.#onConnection(u)))
    const forward = <E extends keyof DriverEvents>(event: E) =>
      this.#off.push(this.#driver.on(event, (payload) => void this.#queue(() => this.#onEvent(event, payload))))
    forward('message.received')
    forward('message.status')
    forward('message.reaction')
    forward('message.edited')
    forward('message.revoked')
    forward('group.participants')
    forward('group.update')
  }

  attach(emulator: WaEmulator): void {
    this.#emulator = emulator
  }

  detach(): void {
    for (const off of this.#off.splice(0)) off()
  }

  /** Wire ids for the world's message ids (what the control API shows). */
  get ids(): IdMap {
    return this.#ids
  }

  /** Whether a session id belongs to a wire device. */
  async isWireSession(sessionId: string): Promise<boolean> {
    return (await this.#deviceOf(sessionId)) !== undefined
  }

  async #deviceOf(sessionId: string): Promise<WireDevice | undefined> {
    return (await this.#em().linkedDevices()).find((d) => d.label === sessionId)
  }

  // ---- WireWorld -----------------------------------------------------------------------------

  async account(phone: string): Promise<WireAccount | undefined> {
    try {
      return toWireAccount(await this.#sandbox.accounts.get(phone))
    } catch (err) {
      if (err instanceof GatewayError) return undefined
      throw err
    }
  }

  async accountByLid(lid: string): Promise<WireAccount | undefined> {
    const found = (await this.#sandbox.accounts.list()).find((a) => a.lid === `${lid}@lid`)
    return found ? toWireAccount(found) : undefined
  }

  async link(request: LinkRequest): Promise<WireDevice> {
    const sessionId = (await this.#namer?.(request)) ?? (await this.#freshSessionId(request.phone))
    await this.#driver.open(sessionId, { auth: bridgeAuth(this.#state, sessionId) })
    const qr = await this.#until(sessionId, (s) => (s.state === 'qr' && s.qr ? s.qr : undefined))
    if (request.method === 'qr') {
      await this.#sandbox.scan(request.phone, qr)
    } else {
      const code = await this.#driver.requestPairingCode(sessionId, request.phone)
      await this.#sandbox.enterCode(request.phone, code)
    }
    await this.#until(sessionId, (s) => (s.state === 'open' ? true : undefined))
    const link = (await this.#sandbox.links(request.phone)).find((l) => l.sessionId === sessionId)
    if (!link) throw new Error(`the world did not link ${sessionId}`)
    return { phone: request.phone, deviceId: link.deviceId, label: sessionId, platform: request.platform }
  }

  async unlinked(device: WireDevice, reason: 'logout' | 'unlink' | 'failed'): Promise<void> {
    // An unlink from the phone started in the world; a logout or a failed link ends it there.
    if (reason !== 'unlink' && device.label) await this.#driver.close(device.label, { logout: true })
  }

  async online(device: WireDevice): Promise<boolean> {
    const sessionId = device.label
    if (!sessionId) return false
    if (this.#sessions.get(sessionId)?.state !== 'open') {
      await this.#driver.open(sessionId, { auth: bridgeAuth(this.#state, sessionId) })
    }
    const state = await this.#until(sessionId, (s) => (s.state === 'open' || s.state === 'logged_out' ? s.state : undefined))
    // What waited in the world reaches the device's queue before it logs in, so it goes out offline.
    await this.idle()
    return state === 'open'
  }

  async offline(device: WireDevice): Promise<void> {
    if (device.label && this.#sessions.get(device.label)?.state === 'open') await this.#driver.close(device.label)
  }

  receive(event: WireEvent): Promise<void> {
    return this.#queue(() => this.#receive(event))
  }

  // ---- settings ------------------------------------------------------------------------------

  async apply(device: WireDevice, setting: WireSetting): Promise<void> {
    const sid = this.#sid(device)
    switch (setting.kind) {
      case 'name':
        return this.#driver.profile(sid, { op: 'setName', name: setting.name })
      case 'about':
        return this.#driver.profile(sid, { op: 'setStatus', status: setting.about })
      case 'archive':
        return this.#driver.chat(sid, { op: setting.archived ? 'archive' : 'unarchive', chatId: setting.chat, lastMessages: [] })
      case 'markUnread':
        return this.#driver.chat(sid, { op: 'markUnread', chatId: setting.chat, lastMessages: [] })
      case 'deleteChat':
        return this.#driver.chat(sid, { op: 'delete', chatId: setting.chat, lastMessages: [] })
      case 'star':
        return this.#driver.message(sid, {
          op: 'star',
          message: { id: await this.#ids.toWorld(setting.id), chatId: setting.chat, fromMe: setting.fromMe },
          star: setting.starred,
        })
      case 'block':
        return this.#driver.contact(sid, { op: setting.blocked ? 'block' : 'unblock', jid: setting.jid })
    }
  }

  pictureOf(device: WireDevice, jid: string): Promise<string | null> {
    return this.#driver.contact(this.#sid(device), { op: 'picture', jid })
  }

  // ---- groups --------------------------------------------------------------------------------

  readonly groups: WireGroups = {
    create: async (by, subject, participants) =>
      this.#group(await this.#driver.group(this.#sid(by), { op: 'create', name: subject, participants: participants.map(userJid) })),
    get: async (by, jid) => {
      try {
        return this.#group(await this.#driver.group(this.#sid(by), { op: 'metadata', groupId: jid }))
      } catch (err) {
        if (hasErrorCode(err, 'GROUP_NOT_FOUND')) return undefined
        throw err
      }
    },
    ofMember: async (by) => (await this.#sandbox.groups(by.phone)).map((g) => this.#group(g)),
    setSubject: (by, jid, subject) => this.#driver.group(this.#sid(by), { op: 'subject', groupId: jid, name: subject }),
    setDescription: (by, jid, description) =>
      this.#driver.group(this.#sid(by), { op: 'description', groupId: jid, description: description ?? '' }),
    participants: async (by, jid, action, phones) => {
      const results = await this.#driver.group(this.#sid(by), { op: 'participants', groupId: jid, action, participants: phones.map(userJid) })
      return results.map((r, i) => ({ phone: phones[i] ?? phoneOfJid(r.jid) ?? '', status: PARTICIPANT_CODES[r.status] ?? '400' }))
    },
    inviteCode: (by, jid, revoke) => this.#driver.group(this.#sid(by), { op: revoke ? 'revokeInvite' : 'inviteCode', groupId: jid }),
    leave: (by, jid) => this.#driver.group(this.#sid(by), { op: 'leave', groupId: jid }),
  }

  #sid(device: WireDevice): string {
    if (!device.label) throw new GatewayError('SESSION_NOT_FOUND')
    return device.label
  }

  #group(info: GroupInfo): WireGroup {
    return {
      jid: info.id,
      subject: info.name,
      description: info.description,
      owner: info.owner ? (phoneOfJid(info.owner) ?? null) : null,
      creationSec: Math.floor(this.#clock.now() / 1000),
      participants: info.participants.map((p) => ({ phone: phoneOfJid(p.id) ?? p.id, admin: p.admin })),
      announce: info.announce ?? false,
    }
  }

  // ---- device → world ------------------------------------------------------------------------

  async #receive(event: WireEvent): Promise<void> {
    if (event.device.label) await applyDeviceEvent(this.#bridge(), event.device.label, event)
  }

  // ---- world → device ------------------------------------------------------------------------

  #onConnection(u: DriverEvents['connection.update']): void {
    const session = this.#sessions.get(u.sessionId) ?? { state: u.state }
    session.state = u.state
    if (u.state === 'qr') session.qr = u.qr
    if (u.state === 'open') session.phone = u.me.phoneNumber
    this.#sessions.set(u.sessionId, session)
    for (const wake of [...this.#waiters]) wake()
    if (u.state === 'logged_out') {
      void this.#queue(async () => {
        const device = await this.#deviceOf(u.sessionId)
        if (device) await this.#em().unlink(device.phone, device.deviceId)
      })
    }
  }

  async #onEvent<E extends keyof DriverEvents>(event: E, payload: DriverEvents[E]): Promise<void> {
    const device = await this.#deviceOf(payload.sessionId)
    if (device) await relayNotice(this.#bridge(), this.#em(), device, event, payload)
  }

  #bridge(): Bridge {
    return { driver: this.#driver, ids: this.#ids, senders: this.#senders, logger: this.#logger, inbox: this.#sandbox.inbox, media: this.#em().media }
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Resolves once every task queued so far (and what they queued) is done. */
  async idle(): Promise<void> {
    for (let last: unknown; last !== this.#serial; ) {
      last = this.#serial
      await this.#serial
    }
  }

  /** Runs one task at a time: what a device sends, then what the world said meanwhile. */
  #queue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#serial.then(task, task)
    this.#serial = next.catch((err: unknown) => this.#logger.warn({ err }, 'wire bridge task failed'))
    return next
  }

  /** Waits for a session state; the in-process door gets there in a few ticks (its delays are zero). */
  #until<T>(sessionId: string, pick: (s: { state: SessionState; qr?: string }) => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = this.#clock.setTimer(() => {
        this.#waiters.delete(check)
        reject(new Error(`session ${sessionId} stuck in ${this.#sessions.get(sessionId)?.state ?? 'nothing'}`))
      }, STATE_WAIT_MS)
      const check = (): void => {
        const session = this.#sessions.get(sessionId)
        const found = session ? pick(session) : undefined
        if (found === undefined) return
        this.#waiters.delete(check)
        this.#clock.clearTimer(timer)
        resolve(found)
      }
      this.#waiters.add(check)
      check()
    })
  }

  async #freshSessionId(phone: string): Promise<string> {
    const taken = new Set((await this.#sandbox.links()).map((l) => l.sessionId))
    for (let n = 1; ; n++) if (!taken.has(`wire-${phone}-${n}`)) return `wire-${phone}-${n}`
  }

  #em(): WaEmulator {
    if (!this.#emulator) throw new Error('attach the emulator first')
    return this.#emulator
  }
}

/** The world's participant outcomes as WhatsApp's codes (the Baileys driver maps them back). */
const PARTICIPANT_CODES: Record<string, string> = {
  success: '200',
  'not-authorized': '403',
  'not-registered': '404',
  'not-in-group': '404',
  'already-in-group': '409',
}

function toWireAccount(a: { phoneNumber: string; lid: string; name: string; about: string | null }): WireAccount {
  return { phone: a.phoneNumber, lid: a.lid.replace(/@lid$/, ''), name: a.name, about: a.about }
}

