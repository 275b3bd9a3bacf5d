/**
 * The connection of each session through the in-process door, as a small state machine on the
 * injected clock: `starting` → (after the QR delay) `qr`, rotated like WhatsApp's → a scan or a
 * pairing code → `connecting` → (after the connect delay) `authenticated` → `open`. Stored creds
 * whose link still exists restore `starting` → `connecting` → `open`; a link removed meanwhile
 * ends in `logged_out` with the auth store cleared.
 * @module
 */
import { GatewayError, parsePhone, userJid } from '@switchboard/core'
import type { AuthStore, ConnectionUpdate, DriverEvents, Me, TimerHandle, TypedEmitter } from '@switchboard/core'
import type { Runtime } from '../../runtime.js'
import { pairingCode, qrRef } from '../../world/ids.js'
import type { Notice } from '../../world/notices.js'
import type { LinkRecord } from '../../world/records.js'
import { credsMatch, credsOf, readSandboxCreds } from './creds.js'

type ConnState = 'starting' | 'qr' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'logged_out'

interface Conn {
  sessionId: string
  auth: AuthStore
  state: ConnState
  /** Bumped whenever an attempt ends, so late steps of an old attempt stop. */
  epoch: number
  timer?: TimerHandle
  /** The linked account, once known. */
  phone?: string
}

const ACTIVE: ReadonlySet<ConnState> = new Set(['starting', 'qr', 'connecting', 'open', 'reconnecting'])

export class Connections {
  readonly #conns = new Map<string, Conn>()
  readonly #tasks = new Set<Promise<void>>()

  constructor(
    private readonly rt: Runtime,
    private readonly events: TypedEmitter<DriverEvents>,
  ) {}

  async open(sessionId: string, auth: AuthStore): Promise<void> {
    const previous = this.#conns.get(sessionId)
    if (previous && ACTIVE.has(previous.state)) return
    const conn: Conn = { sessionId, auth, state: 'starting', epoch: (previous?.epoch ?? 0) + 1 }
    this.#conns.set(sessionId, conn)
    this.#update(conn, { state: 'starting' })
    const epoch = conn.epoch
    let creds = readSandboxCreds(await auth.readCreds())
    if (conn.epoch !== epoch) return
    if (creds === 'foreign') {
      await auth.clear()
      creds = undefined
    }
    if (creds !== undefined) {
      const stored = creds
      conn.phone = stored.phone
      conn.state = 'connecting'
      this.#update(conn, { state: 'connecting' })
      this.#arm(conn, this.rt.timings.connectDelayMs, () => this.#resume(conn, epoch, (link) => credsMatch(stored, link)))
      return
    }
    if (this.rt.world.links.get(sessionId)) {
      // The device lost its keys: the account's old link to it is dead.
      this.rt.world.links.logout(sessionId)
      await this.rt.commit()
    }
    if (conn.epoch !== epoch) return
    this.#arm(conn, this.rt.timings.qrDelayMs, () => this.#showQr(conn, epoch))
  }

  async requestPairingCode(sessionId: string, phoneDigits: string): Promise<string> {
    const conn = this.#conns.get(sessionId)
    if (!conn) throw new GatewayError('SESSION_NOT_FOUND_OR_NOT_STARTED')
    if (conn.state === 'closed' || conn.state === 'logged_out') throw new GatewayError('SESSION_NOT_STARTED')
    if (conn.state === 'starting') throw new GatewayError('QR_NOT_AVAILABLE', { state: 'starting' })
    if (conn.state !== 'qr') throw new GatewayError('ALREADY_AUTHENTICATED')
    const phone = parsePhone(phoneDigits)
    if (phone === undefined) throw new GatewayError('INVALID_PHONE_NUMBER')
    if (!this.rt.world.accounts.resolve(userJid(phone))) throw new GatewayError('NUMBER_NOT_REGISTERED')
    const code = pairingCode(this.rt.newId)
    this.rt.world.links.offerCode(sessionId, phone, code, this.rt.timings.codeTtlMs)
    return code
  }

  async close(sessionId: string, logout: boolean): Promise<void> {
    const conn = this.#conns.get(sessionId)
    const wasActive = conn !== undefined && ACTIVE.has(conn.state)
    if (conn) this.#stop(conn, wasActive ? 'closed' : conn.state)
    if (logout) {
      this.rt.world.links.logout(sessionId)
      await this.rt.commit()
      await conn?.auth.clear()
    }
    if (conn && wasActive) this.#update(conn, { state: 'closed' })
  }

  async shutdown(): Promise<void> {
    for (const conn of [...this.#conns.values()]) if (ACTIVE.has(conn.state)) await this.close(conn.sessionId, false)
    await this.idle()
  }

  /** The network drops the connection; the door reconnects after the connect delay. */
  drop(sessionId: string): void {
    const conn = this.#conns.get(sessionId)
    if (!conn || conn.state !== 'open') throw new GatewayError('SESSION_NOT_FOUND')
    const epoch = this.#stop(conn, 'reconnecting')
    this.#update(conn, { state: 'disconnected', reason: 'connection_lost', error: 'Connection lost', willReconnect: true })
    this.#update(conn, { state: 'connecting' })
    this.#arm(conn, this.rt.timings.connectDelayMs, () => this.#resume(conn, epoch, (link) => link?.phone === conn.phone))
  }

  /** A scan or an entered pairing code linked one of our sessions. */
  linked(link: LinkRecord): void {
    const conn = this.#conns.get(link.sessionId)
    if (!conn || conn.state !== 'qr') return
    const epoch = this.#stop(conn, 'connecting')
    conn.phone = link.phone
    this.#update(conn, { state: 'connecting' })
    this.#arm(conn, this.rt.timings.connectDelayMs, () => this.#finishLink(conn, epoch, link))
  }

  /** The account removed one of our sessions from its phone. */
  unlinked(link: LinkRecord, by: 'account' | 'device'): void {
    const conn = this.#conns.get(link.sessionId)
    if (by === 'device' || !conn || !['connecting', 'open', 'reconnecting'].includes(conn.state)) return
    this.#task(this.#loggedOut(conn, this.#stop(conn, 'logged_out')))
  }

  /** The linked phone of an open session, or the error a caller gets. */
  requireOpen(sessionId: string, forSend: boolean): string {
    const conn = this.#conns.get(sessionId)
    if (conn?.state === 'open' && conn.phone !== undefined) return conn.phone
    if (conn?.phone !== undefined && (conn.state === 'connecting' || conn.state === 'reconnecting')) {
      throw new GatewayError('SESSION_CONNECTING')
    }
    if (forSend) throw new GatewayError('SESSION_NOT_AUTHENTICATED', { sessionId })
    throw new GatewayError('NOT_AUTHENTICATED')
  }

  /** Whether this door runs the session (open or not). */
  owns(sessionId: string): boolean {
    return this.#conns.has(sessionId)
  }

  isOpen(sessionId: string): boolean {
    return this.#conns.get(sessionId)?.state === 'open'
  }

  /** Resolves once the asynchronous steps started so far are done. */
  async idle(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks])
  }

  #showQr(conn: Conn, epoch: number): void {
    if (conn.epoch !== epoch || (conn.state !== 'starting' && conn.state !== 'qr')) return
    const qr = `sandbox:${conn.sessionId}:${qrRef(this.rt.newId)}`
    this.rt.world.links.offerQr(conn.sessionId, qr, this.rt.timings.qrTtlMs)
    conn.state = 'qr'
    this.#update(conn, { state: 'qr', qr })
    this.#arm(conn, this.rt.timings.qrRotateMs, () => this.#showQr(conn, epoch))
  }

  async #finishLink(conn: Conn, epoch: number, link: LinkRecord): Promise<void> {
    const current = this.rt.world.links.get(conn.sessionId)
    if (!current || current.deviceId !== link.deviceId || current.phone !== link.phone) return
    await conn.auth.writeCreds(credsOf(link))
    if (conn.epoch !== epoch) return
    this.#update(conn, { state: 'authenticated', me: this.#me(link.phone) })
    await this.#goOpen(conn, epoch, link, true)
  }

  async #resume(conn: Conn, epoch: number, valid: (link: LinkRecord | undefined) => boolean): Promise<void> {
    if (conn.epoch !== epoch) return
    const link = this.rt.world.links.get(conn.sessionId)
    if (valid(link) && link && this.rt.world.accounts.resolve(userJid(link.phone))) await this.#goOpen(conn, epoch, link, false)
    else await this.#loggedOut(conn, epoch)
  }

  async #goOpen(conn: Conn, epoch: number, link: LinkRecord, fresh: boolean): Promise<void> {
    conn.state = 'open'
    conn.phone = link.phone
    const queued = this.rt.world.links.connect(conn.sessionId)
    const me = this.#me(link.phone)
    this.#update(conn, { state: 'open', me })
    this.#emit(conn.sessionId, { event: 'identity.mapping', payload: { mappings: [{ lid: me.lid!, pn: me.jid }] } })
    if (fresh) this.#history(conn.sessionId, link.phone)
    for (const n of queued) {
      if (n.event === 'message.received') this.#emit(conn.sessionId, { event: n.event, payload: { message: { ...n.payload.message, offline: true } } })
      else this.#emit(conn.sessionId, n)
    }
    if (queued.length > 0 && conn.epoch === epoch) await this.rt.commit()
  }

  /** What a freshly linked device learns from the phone (WhatsApp's history sync, without messages). */
  #history(sessionId: string, phone: string): void {
    const chats = this.rt.world.chats.list(phone)
    const contacts = chats
      .filter((chat) => chat.id.endsWith('@s.whatsapp.net'))
      .flatMap((chat) => {
        const account = this.rt.world.accounts.resolve(chat.id)
        const record = account === undefined ? undefined : this.rt.world.accounts.get(account)
        return record ? [{ id: record.jid, lid: record.lid, notify: record.name }] : []
      })
    if (contacts.length > 0) this.#emit(sessionId, { event: 'contacts.upsert', payload: { contacts } })
    if (chats.length > 0) this.#emit(sessionId, { event: 'chats.upsert', payload: { chats } })
  }

  async #loggedOut(conn: Conn, epoch: number): Promise<void> {
    conn.state = 'logged_out'
    this.rt.world.links.withdraw(conn.sessionId)
    this.rt.world.links.disconnect(conn.sessionId)
    await conn.auth.clear()
    if (conn.epoch !== epoch) return
    this.#update(conn, { state: 'logged_out', reason: 'logged_out', error: 'Logged out' })
  }

  /** Ends the current attempt: no timer, no offers, offline. Returns the new epoch. */
  #stop(conn: Conn, state: ConnState): number {
    if (conn.timer !== undefined) this.rt.clock.clearTimer(conn.timer)
    delete conn.timer
    this.rt.world.links.withdraw(conn.sessionId)
    this.rt.world.links.disconnect(conn.sessionId)
    conn.state = state
    return ++conn.epoch
  }

  #arm(conn: Conn, ms: number, step: () => void | Promise<void>): void {
    if (conn.timer !== undefined) this.rt.clock.clearTimer(conn.timer)
    conn.timer = this.rt.clock.setTimer(() => {
      delete conn.timer
      const result = step()
      if (result instanceof Promise) this.#task(result)
    }, ms)
  }

  #task(promise: Promise<void>): void {
    const tracked = promise.catch((err: unknown) => this.rt.logger.error({ err }, 'sandbox connection step failed'))
    this.#tasks.add(tracked)
    void tracked.finally(() => this.#tasks.delete(tracked))
  }

  #me(phone: string): Me {
    const account = this.rt.world.accounts.get(phone)
    return { jid: account.jid, phoneNumber: account.phone, lid: account.lid, name: account.name }
  }

  #update(conn: Conn, update: ConnectionUpdate): void {
    this.events.emit('connection.update', { sessionId: conn.sessionId, ...update })
  }

  #emit(sessionId: string, n: Notice): void {
    this.events.emit(n.event, { sessionId, ...n.payload } as never)
  }
}
