/**
 * Messaging: sending (text in this release; the other types go through the same path), the
 * message records, and the translation of the driver's message events into the spec's webhook
 * events. Inbound messages are de-duplicated by id, so an offline backlog replayed twice, or
 * an echo of our own send, never reaches a webhook twice.
 * @module
 */
import { GatewayError, isGatewayError } from '../errors/index.js'
import { isGroupJid, normalizeRecipient, phoneOfJid } from '../addressing/index.js'
import { isoAt, unixSeconds, type Clock } from '../kernel/clock.js'
import type { Logger } from '../kernel/logger.js'
import type { DriverEvents, NetworkDriver } from '../network/driver.js'
import type { Jid, OutboundContent } from '../network/types.js'
import type { Principal } from '../operations/types.js'
import type { GatewayEvent } from '../schemas/events.js'
import type { Collection } from '../store/store.js'
import type { Directory } from './directory.js'
import { advancesStatus, recordKey, refOf, type MessageRecord } from './message-record.js'
import { RegistrationCache } from './registration-cache.js'
import { EarlyStatuses, RecentKeys } from './early-statuses.js'

/** What messaging needs from the sessions room. */
export interface MessagingSessions {
  requireReady(id: string): { id: string; phoneNumber?: string }
  countMessage(id: string, direction: 'sent' | 'received'): void
}

/** What messaging needs from keys and limits. */
export interface MessagingPolicy {
  /** Counts one message against the session's messages-per-minute limit (throws RATE_LIMITED). */
  takeMessage(sessionId: string, principal: Principal | undefined): Promise<void>
  /** Throws TRIAL_RECIPIENT_NOT_ALLOWED for trial keys and recipients outside their list. */
  assertRecipient(principal: Principal | undefined, to: Jid): void
  recordMessageSent(principal: Principal | undefined): void
}

export interface MessagingServiceDeps {
  messages: Collection<MessageRecord>
  directory: Directory
  driver: NetworkDriver
  sessions: MessagingSessions
  policy: MessagingPolicy
  emit(event: GatewayEvent): void
  clock: Clock
  logger: Logger
  /** @default 65536 */
  maxTextLength?: number
}

export interface SendResult {
  messageId: string
  to: Jid
  type: OutboundContent['type']
  status: 'sent'
  timestamp: string
}

export class MessagingService {
  readonly #d: MessagingServiceDeps
  readonly #registered: RegistrationCache
  readonly #earlyStatus = new EarlyStatuses()
  readonly #recent = new RecentKeys(10_000)
  readonly #unsubscribe: (() => void)[]

  constructor(deps: MessagingServiceDeps) {
    this.#d = deps
    this.#registered = new RegistrationCache(deps.clock)
    const on = deps.driver.on.bind(deps.driver)
    this.#unsubscribe = [
      on('message.received', (e) => this.#guard(this.#onReceived(e), e.sessionId)),
      on('message.status', (e) => this.#guard(this.#onStatus(e), e.sessionId)),
      on('message.reaction', (e) => this.#guard(this.#onReaction(e), e.sessionId)),
      on('message.revoked', (e) => this.#guard(this.#onRevoked(e), e.sessionId)),
      on('message.edited', (e) => this.#guard(this.#onEdited(e), e.sessionId)),
      on('contacts.upsert', (e) => this.#guard(deps.directory.upsertContacts(e.sessionId, e.contacts), e.sessionId)),
      on('chats.upsert', (e) => this.#guard(deps.directory.upsertChats(e.sessionId, e.chats), e.sessionId)),
    ]
  }

  close(): void {
    for (const off of this.#unsubscribe) off()
  }

  /** Sends a text, optionally as a reply to a recorded message. */
  async sendText(
    sessionId: string,
    input: { to: string; text: string; quotedMessageId?: string | undefined },
    principal?: Principal,
  ): Promise<SendResult> {
    if (input.text.length > (this.#d.maxTextLength ?? 65_536)) throw new GatewayError('TEXT_TOO_LONG')
    return this.send(sessionId, input.to, { type: 'text', text: input.text }, { quotedMessageId: input.quotedMessageId, principal })
  }

  /** The one send path: readiness, recipient, trial rules, limits, registration, record. */
  async send(
    sessionId: string,
    recipient: string,
    content: OutboundContent,
    opts: { quotedMessageId?: string | undefined; principal?: Principal | undefined } = {},
  ): Promise<SendResult> {
    this.#d.sessions.requireReady(sessionId)
    const to = normalizeRecipient(recipient)
    this.#d.policy.assertRecipient(opts.principal, to)
    const quoted = opts.quotedMessageId === undefined ? undefined : await this.getRecord(sessionId, opts.quotedMessageId)
    await this.#d.policy.takeMessage(sessionId, opts.principal)
    await this.#assertRegistered(sessionId, to)
    const sent = await this.#d.driver.send(sessionId, { to, content, ...(quoted ? { quoted: refOf(quoted) } : {}) })
    const session = this.#d.sessions.requireReady(sessionId)
    const record: MessageRecord = {
      id: sent.id,
      sessionId,
      chatId: to,
      from: session.phoneNumber ? `${session.phoneNumber}@s.whatsapp.net` : '',
      to,
      fromMe: true,
      isGroup: isGroupJid(to),
      type: content.type,
      body: content.type === 'text' ? content.text : 'caption' in content ? (content.caption ?? '') : '',
      timestampSec: unixSeconds(sent.timestampMs),
      status: 'sent',
      ...(quoted ? { quotedMessageId: quoted.id } : {}),
      ...('media' in content ? { media: { mimetype: content.media.mimetype, sizeBytes: content.media.data.length, ...(content.media.filename ? { filename: content.media.filename } : {}) } } : {}),
      ...(sent.raw === undefined ? {} : { raw: sent.raw }),
    }
    // A status may have raced ahead of this write (fast networks): keep the furthest one.
    const early = this.#earlyStatus.take(recordKey(sessionId, sent.id))
    if (early && advancesStatus(record.status, early)) record.status = early
    await this.#d.messages.set(recordKey(sessionId, sent.id), record)
    await this.#d.directory.noteMessage(sessionId, { ...refOf(record), timestampSec: record.timestampSec }, { unread: false })
    this.#d.sessions.countMessage(sessionId, 'sent')
    this.#d.policy.recordMessageSent(opts.principal)
    return { messageId: sent.id, to, type: content.type, status: 'sent', timestamp: isoAt(sent.timestampMs) }
  }

  /** `{ exists, jid }` for a number (cached; the network is asked at most every few minutes). */
  async checkNumber(sessionId: string, phone: string): Promise<{ exists: boolean; jid: Jid }> {
    this.#d.sessions.requireReady(sessionId)
    const jid = normalizeRecipient(phone)
    if (isGroupJid(jid)) throw new GatewayError('INVALID_PHONE_NUMBER')
    return { exists: await this.#isRegistered(sessionId, jid), jid }
  }

  /** A recorded message, or MESSAGE_NOT_FOUND. */
  async getRecord(sessionId: string, messageId: string): Promise<MessageRecord> {
    const record = await this.#d.messages.get(recordKey(sessionId, messageId))
    if (!record) throw new GatewayError('MESSAGE_NOT_FOUND')
    return record
  }

  async purge(sessionId: string): Promise<void> {
    await this.#d.messages.clear(sessionId)
    await this.#d.directory.purge(sessionId)
    this.#registered.forgetSession(sessionId)
  }

  /** Removes records older than `maxAgeMs` (the retention period). */
  async sweep(maxAgeMs: number): Promise<number> {
    const cutoff = unixSeconds(this.#d.clock.now() - maxAgeMs)
    const old: string[] = []
    for await (const [key, record] of this.#d.messages.entries()) if (record.timestampSec < cutoff) old.push(key)
    for (let i = 0; i < old.length; i += 500) await this.#d.messages.batch({ delete: old.slice(i, i + 500) })
    return old.length
  }

  async #assertRegistered(sessionId: string, to: Jid): Promise<void> {
    if (phoneOfJid(to) === undefined) return
    if (!(await this.#isRegistered(sessionId, to))) throw new GatewayError('NUMBER_NOT_REGISTERED')
  }

  async #isRegistered(sessionId: string, jid: Jid): Promise<boolean> {
    const cached = this.#registered.get(sessionId, jid)
    if (cached !== undefined) return cached
    const digits = phoneOfJid(jid)!
    const [answer] = await this.#d.driver.contact(sessionId, { op: 'check', phones: [digits] })
    const exists = answer?.exists ?? false
    this.#registered.set(sessionId, jid, exists)
    return exists
  }

  async #onReceived({ sessionId, message: m }: DriverEvents['message.received']): Promise<void> {
    const key = recordKey(sessionId, m.id)
    // Two copies can arrive back to back, before either is written: remember ids synchronously.
    if (!this.#recent.add(key)) return
    const existing = await this.#d.messages.get(key)
    if (existing) return
    const record: MessageRecord = {
      id: m.id,
      sessionId,
      chatId: m.chatId,
      from: m.from,
      to: m.to,
      fromMe: m.fromMe,
      isGroup: m.isGroup,
      ...(m.participant === undefined ? {} : { participant: m.participant }),
      type: m.type,
      body: m.body,
      timestampSec: m.timestampSec,
      status: m.fromMe ? 'sent' : 'received',
      ...(m.quotedMessageId === undefined ? {} : { quotedMessageId: m.quotedMessageId }),
      ...(m.media === undefined ? {} : { media: m.media }),
      ...(m.pushName === undefined ? {} : { pushName: m.pushName }),
      ...(m.raw === undefined ? {} : { raw: m.raw }),
    }
    await this.#d.messages.set(key, record)
    await this.#d.directory.noteMessage(sessionId, { ...refOf(record), timestampSec: m.timestampSec }, {
      unread: !m.fromMe,
      ...(m.isGroup || !m.pushName ? {} : { name: m.pushName }),
    })
    if (!m.fromMe && !m.isGroup && m.pushName) {
      await this.#d.directory.upsertContacts(sessionId, [{ id: m.from, notify: m.pushName, ...(m.fromLid ? { lid: m.fromLid } : {}) }])
    }
    if (!m.fromMe) this.#d.sessions.countMessage(sessionId, 'received')
    this.#d.emit({
      event: 'message',
      sessionId,
      timestamp: isoAt(this.#d.clock.now()),
      message: {
        id: m.id,
        from: m.from,
        ...(m.fromLid === undefined ? {} : { fromLid: m.fromLid }),
        to: m.to,
        body: m.body,
        type: m.type,
        timestamp: m.timestampSec,
        hasMedia: m.media !== undefined,
        fromMe: m.fromMe,
        isGroup: m.isGroup,
        ...(m.participant === undefined ? {} : { participant: m.participant }),
        ...(m.pushName === undefined ? {} : { pushName: m.pushName }),
        ...(m.quotedMessageId === undefined ? {} : { quotedMessageId: m.quotedMessageId }),
      },
    })
  }

  async #onStatus(e: DriverEvents['message.status']): Promise<void> {
    const key = recordKey(e.sessionId, e.messageId)
    const record = await this.#d.messages.get(key)
    if (record && !advancesStatus(record.status, e.status)) return
    if (record) {
      record.status = e.status
      await this.#d.messages.set(key, record)
    } else {
      // The status beat the send's own write: park it so the send keeps the furthest status. If
      // the send wrote its record meanwhile (and so looked before we parked), apply it here.
      this.#earlyStatus.put(key, e.status)
      const late = await this.#d.messages.get(key)
      const parked = late && this.#earlyStatus.take(key)
      if (late && parked && advancesStatus(late.status, parked)) {
        late.status = parked
        await this.#d.messages.set(key, late)
      }
    }
    // spec: message_status carries pending, sent, delivered, read (played counts as read).
    if (e.status === 'failed') return
    const status = e.status === 'played' ? 'read' : e.status
    this.#d.emit({
      event: 'message_status',
      sessionId: e.sessionId,
      timestamp: isoAt(this.#d.clock.now()),
      statusUpdate: { messageId: e.messageId, chatId: e.chatId, status, timestamp: e.timestampSec },
    })
  }

  async #onReaction(e: DriverEvents['message.reaction']): Promise<void> {
    const key = recordKey(e.sessionId, e.messageId)
    const record = await this.#d.messages.get(key)
    if (record) {
      const reactions = { ...record.reactions }
      if (e.reaction) reactions[e.from] = e.reaction
      else delete reactions[e.from]
      record.reactions = reactions
      await this.#d.messages.set(key, record)
    }
    this.#d.emit({
      event: 'message_reaction',
      sessionId: e.sessionId,
      timestamp: e.timestampSec,
      messageId: e.messageId,
      chatId: e.chatId,
      from: e.from,
      reaction: e.reaction,
    })
  }

  async #onRevoked(e: DriverEvents['message.revoked']): Promise<void> {
    const key = recordKey(e.sessionId, e.messageId)
    const record = await this.#d.messages.get(key)
    if (record) {
      record.revoked = true
      record.body = ''
      await this.#d.messages.set(key, record)
    }
    this.#d.emit({
      event: 'message_revoke_everyone',
      sessionId: e.sessionId,
      timestamp: e.timestampSec,
      messageId: e.messageId,
      chatId: e.chatId,
      fromMe: e.fromMe,
    })
  }

  async #onEdited(e: DriverEvents['message.edited']): Promise<void> {
    const key = recordKey(e.sessionId, e.messageId)
    const record = await this.#d.messages.get(key)
    if (!record) return
    record.body = e.text
    record.editedAtSec = e.timestampSec
    await this.#d.messages.set(key, record)
  }

  #guard(work: Promise<void>, sessionId: string): void {
    work.catch((err: unknown) => {
      const level = isGatewayError(err) ? 'warn' : 'error'
      this.#d.logger[level]({ err, sessionId }, 'could not handle a network event')
    })
  }
}
