/**
 * Sessions: create, link (QR or pairing code), stop, start, log out, delete, list, and the state
 * machine fed by the network driver. The live records are in memory (every request reads them)
 * and written through to the `sessions` collection on every change that matters.
 * @module
 */
import QRCode from 'qrcode'
import { GatewayError } from '../errors/index.js'
import { normalizePhone } from '../addressing/index.js'
import { isoAt, type Clock } from '../kernel/clock.js'
import type { NewId } from '../kernel/ids.js'
import type { Logger } from '../kernel/logger.js'
import type { AuthStore, ConnectionUpdate, NetworkDriver } from '../network/driver.js'
import type { Principal } from '../operations/types.js'
import type { GatewayEvent } from '../schemas/events.js'
import type { Collection } from '../store/store.js'
import type { SessionRecord, SessionState } from './session-record.js'
import { isReconnecting, transition, type SessionSignal } from './session-state.js'
import { StateWaiters } from './state-waiters.js'

export interface SessionKeys {
  issueSessionKey(sessionId: string, accountKeyId: string): Promise<string>
  revokeSessionKeys(sessionId: string): Promise<void>
  recordSessionCreated(accountKeyId: string): void
}

export interface SessionServiceDeps {
  sessions: Collection<SessionRecord>
  driver: NetworkDriver
  authStoreFor(sessionId: string): AuthStore
  keys: SessionKeys
  /** Counts a creation against the creating key's sessions-per-hour limit (throws RATE_LIMITED). */
  admitCreation(principal: Principal): Promise<void>
  /** Removes everything else the session owns (messages, chats, pending webhooks, …). */
  purge(sessionId: string): Promise<void>
  emit(event: GatewayEvent): void
  newWebhookSecret(): string
  clock: Clock
  logger: Logger
  newId: NewId
  /** Minimum spacing of QR deliveries per session. @default 5000 */
  qrPollIntervalMs?: number
  /** How long a pairing-code request waits for a starting session to show its QR. @default 15000 */
  pairingWaitMs?: number
}

export interface CreateSessionInput {
  name: string
  webhookUrl?: string | undefined
  metadata?: Record<string, unknown> | undefined
}

const LINKING_STATES: ReadonlySet<SessionState> = new Set(['starting', 'qr_ready'])
const RUNNING_STATES: ReadonlySet<SessionState> = new Set(['starting', 'qr_ready', 'connecting', 'ready', 'disconnected'])

export class SessionService {
  readonly #d: SessionServiceDeps
  readonly #live = new Map<string, SessionRecord>()
  readonly #qr = new Map<string, string>()
  readonly #lastQrAt = new Map<string, number>()
  /** Pairing codes handed out, normalized, to the session that asked. */
  readonly #pairingCodes = new Map<string, string>()
  readonly #waiters = new StateWaiters()
  readonly #unsubscribe: () => void
  #lastActivityPersisted = new Map<string, number>()

  constructor(deps: SessionServiceDeps) {
    this.#d = deps
    this.#unsubscribe = deps.driver.on('connection.update', (u) => this.#onConnection(u))
  }

  /** Loads the records and reopens every session that should be running (no new scan needed). */
  async start(): Promise<void> {
    for await (const [, record] of this.#d.sessions.entries()) this.#live.set(record.id, record)
    for (const record of this.#live.values()) {
      if (record.desired !== 'running' || !RUNNING_STATES.has(record.state)) continue
      await this.#open(record).catch((err: unknown) =>
        this.#d.logger.error({ err, sessionId: record.id }, 'could not restore session'),
      )
    }
  }

  async close(): Promise<void> {
    this.#unsubscribe()
    this.#waiters.rejectAll()
    await Promise.all([...this.#live.values()].map((r) => this.#persist(r)))
  }

  /** The live record, or SESSION_NOT_FOUND. */
  get(id: string): SessionRecord {
    const record = this.#live.get(id)
    if (!record) throw new GatewayError('SESSION_NOT_FOUND')
    return record
  }

  find(id: string): SessionRecord | undefined {
    return this.#live.get(id)
  }

  all(): SessionRecord[] {
    return [...this.#live.values()]
  }

  async create(input: CreateSessionInput, principal: Principal): Promise<{ record: SessionRecord; apiKey: string }> {
    const name = input.name.trim()
    if ([...this.#live.values()].some((s) => s.name === name)) throw new GatewayError('SESSION_NAME_TAKEN')
    const max = principal.limits.maxSessions
    if (max !== null && this.all().filter((s) => s.accountKeyId === principal.accountKeyId).length >= max) {
      throw new GatewayError('MAX_SESSIONS_REACHED')
    }
    await this.#d.admitCreation(principal)
    const now = this.#d.clock.now()
    const record: SessionRecord = {
      id: this.#d.newId(),
      name,
      accountKeyId: principal.accountKeyId,
      state: 'creating',
      desired: 'running',
      createdAtMs: now,
      lastActivityAtMs: now,
      webhookUrl: input.webhookUrl ?? null,
      webhookSecret: this.#d.newWebhookSecret(),
      ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      messagesSent: 0,
      messagesReceived: 0,
    }
    this.#live.set(record.id, record)
    await this.#persist(record)
    const apiKey = await this.#d.keys.issueSessionKey(record.id, principal.accountKeyId)
    this.#d.keys.recordSessionCreated(principal.accountKeyId)
    await this.#open(record)
    return { record, apiKey }
  }

  /** The QR payload (or a PNG data URL), rate-limited to one delivery per interval per session. */
  async qr(id: string, format: 'raw' | 'png'): Promise<string> {
    const record = this.get(id)
    if (record.state === 'ready') throw new GatewayError('ALREADY_AUTHENTICATED')
    const qr = this.#qr.get(id)
    if (record.state !== 'qr_ready' || qr === undefined) throw new GatewayError('QR_NOT_AVAILABLE', { state: record.state })
    const now = this.#d.clock.now()
    const interval = this.#d.qrPollIntervalMs ?? 5000
    const last = this.#lastQrAt.get(id)
    if (last !== undefined && now - last < interval) {
      throw new GatewayError('QR_POLLED_TOO_SOON', {}, { retryAfter: Math.ceil((last + interval - now) / 1000) })
    }
    this.#lastQrAt.set(id, now)
    this.touch(record)
    return format === 'png' ? QRCode.toDataURL(qr, { margin: 2, width: 320 }) : qr
  }

  async requestPairingCode(id: string, phoneNumber: string): Promise<{ code: string; phoneNumber: string }> {
    const record = this.#live.get(id)
    if (!record) throw new GatewayError('SESSION_NOT_FOUND_OR_NOT_STARTED')
    const digits = normalizePhone(phoneNumber)
    if (record.state === 'ready') throw new GatewayError('ALREADY_AUTHENTICATED')
    if (record.state === 'connecting' || (record.state === 'disconnected' && record.phoneNumber)) {
      throw new GatewayError('SESSION_CONNECTING')
    }
    if (!LINKING_STATES.has(record.state) && record.state !== 'creating') throw new GatewayError('SESSION_NOT_STARTED')
    if (record.state !== 'qr_ready') {
      await this.#waiters.wait(id, 'qr_ready', this.#d.pairingWaitMs ?? 15_000, this.#d.clock).catch(() => {
        throw new GatewayError('QR_NOT_AVAILABLE', { state: this.get(id).state })
      })
    }
    const code = await this.#d.driver.requestPairingCode(id, digits)
    this.#pairingCodes.set(normalizeCode(code), id)
    this.touch(record)
    return { code, phoneNumber: digits }
  }

  async stop(id: string): Promise<void> {
    const record = this.get(id)
    record.desired = 'stopped'
    if (record.state !== 'stopped') {
      await this.#d.driver.close(id)
      this.#setState(record, record.state === 'logged_out' ? 'logged_out' : 'stopped')
    }
    this.#qr.delete(id)
    await this.#persist(record)
  }

  /** Reconnects a stopped session with its stored link, or shows a new QR after a logout. */
  async startSession(id: string): Promise<'started' | 'already running'> {
    const record = this.get(id)
    if (RUNNING_STATES.has(record.state)) return 'already running'
    record.desired = 'running'
    await this.#open(record)
    return 'started'
  }

  async logout(id: string): Promise<void> {
    const record = this.get(id)
    await this.#d.driver.close(id, { logout: true })
    await this.#d.authStoreFor(id).clear()
    record.desired = 'stopped'
    this.#unlink(record)
    const wasLoggedOut = record.state === 'logged_out'
    this.#setState(record, 'logged_out')
    await this.#persist(record)
    if (!wasLoggedOut) this.#signal(record, { event: 'logged_out' })
  }

  /** Irreversible: unlinks, removes credentials, records, keys and pending webhooks. */
  async delete(id: string): Promise<void> {
    const record = this.get(id)
    this.#live.delete(id)
    await this.#d.driver.close(id, { logout: record.phoneNumber !== undefined }).catch((err: unknown) =>
      this.#d.logger.warn({ err, sessionId: id }, 'unlink on delete failed; removing anyway'),
    )
    await this.#d.authStoreFor(id).clear()
    await this.#d.keys.revokeSessionKeys(id)
    await this.#d.sessions.delete(id)
    await this.#d.purge(id)
    this.#qr.delete(id)
    this.#lastQrAt.delete(id)
    for (const [code, owner] of this.#pairingCodes) if (owner === id) this.#pairingCodes.delete(code)
    this.#lastActivityPersisted.delete(id)
    this.#waiters.rejectSession(id)
  }

  async setWebhook(id: string, url: string | null): Promise<SessionRecord> {
    const record = this.get(id)
    record.webhookUrl = url
    this.touch(record)
    await this.#persist(record)
    return record
  }

  /**
   * Throws unless the session can send: "still connecting" while a linked session comes back,
   * "not authenticated" otherwise.
   */
  requireReady(id: string, notReady: 'SESSION_NOT_AUTHENTICATED' | 'NOT_AUTHENTICATED' = 'SESSION_NOT_AUTHENTICATED'): SessionRecord {
    const record = this.get(id)
    if (record.state === 'ready') return record
    if (isReconnecting(record.state, record.phoneNumber !== undefined)) throw new GatewayError('SESSION_CONNECTING')
    if (notReady === 'NOT_AUTHENTICATED') throw new GatewayError('NOT_AUTHENTICATED')
    throw new GatewayError('SESSION_NOT_AUTHENTICATED', { sessionId: id })
  }

  /** Marks activity; persisted at most once a minute per session (state changes persist at once). */
  touch(record: SessionRecord): void {
    const now = this.#d.clock.now()
    record.lastActivityAtMs = now
    const persisted = this.#lastActivityPersisted.get(record.id) ?? 0
    if (now - persisted >= 60_000) {
      this.#lastActivityPersisted.set(record.id, now)
      void this.#persist(record)
    }
  }

  /** Counts a message on the session (usage statistics). */
  countMessage(id: string, direction: 'sent' | 'received'): void {
    const record = this.#live.get(id)
    if (!record) return
    if (direction === 'sent') record.messagesSent++
    else record.messagesReceived++
    this.touch(record)
  }

  /**
   * The session that currently shows `qr`, or that was handed pairing `code`: a network door that
   * links devices itself (the sandbox's protocol door) names the linked session with it.
   */
  sessionForLink(link: { qr?: string | undefined; code?: string | undefined }): string | undefined {
    if (link.qr !== undefined) {
      for (const [id, qr] of this.#qr) if (qr === link.qr) return id
    }
    return link.code === undefined ? undefined : this.#pairingCodes.get(normalizeCode(link.code))
  }

  /** Waits until the session reaches `state` (tests and pairing); rejects after `timeoutMs`. */
  waitForState(id: string, state: SessionState, timeoutMs: number): Promise<void> {
    if (this.get(id).state === state) return Promise.resolve()
    return this.#waiters.wait(id, state, timeoutMs, this.#d.clock)
  }

  /** Starts the driver; a driver that cannot even start leaves the session `failed`, not stuck. */
  async #open(record: SessionRecord): Promise<void> {
    this.#setState(record, 'starting')
    await this.#persist(record)
    try {
      await this.#d.driver.open(record.id, { auth: this.#d.authStoreFor(record.id) })
    } catch (err) {
      this.#d.logger.error({ err, sessionId: record.id }, 'the network could not open the session')
      this.#onConnection({ sessionId: record.id, state: 'failed', reason: 'unknown', error: 'Could not connect to the network' })
    }
  }

  #onConnection(update: { sessionId: string } & ConnectionUpdate): void {
    const record = this.#live.get(update.sessionId)
    if (!record) return
    const next = transition(record.state, update)
    if (!next) return
    if (next.qr !== undefined) this.#qr.set(record.id, next.qr)
    else this.#qr.delete(record.id)
    if (next.me) {
      record.me = next.me
      record.phoneNumber = next.me.phoneNumber
    }
    if (next.unlinked) this.#unlink(record)
    if (next.error !== undefined) record.lastError = next.error
    if (next.state === 'logged_out' || next.state === 'failed') record.desired = 'stopped'
    this.#setState(record, next.state)
    void this.#persist(record)
    for (const signal of next.signals) this.#signal(record, signal)
  }

  #unlink(record: SessionRecord): void {
    delete record.phoneNumber
    delete record.me
  }

  #setState(record: SessionRecord, state: SessionState): void {
    if (record.state === state) return
    this.#d.logger.debug({ sessionId: record.id, from: record.state, to: state }, 'session state')
    record.state = state
    record.lastActivityAtMs = this.#d.clock.now()
    this.#waiters.notify(record.id, state)
  }

  #signal(record: SessionRecord, signal: SessionSignal): void {
    const base = { sessionId: record.id, timestamp: isoAt(this.#d.clock.now()) }
    this.#d.emit({ ...base, ...signal } as GatewayEvent)
  }

  async #persist(record: SessionRecord): Promise<void> {
    if (!this.#live.has(record.id)) return
    try {
      await this.#d.sessions.set(record.id, record)
    } catch (err) {
      this.#d.logger.error({ err, sessionId: record.id }, 'could not persist session')
    }
  }
}

/** Pairing codes are typed with or without the dash, in any case. */
function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '')
}
