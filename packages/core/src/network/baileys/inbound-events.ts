/**
 * Wires the Baileys events of one socket to the port's events: messages (notify and append,
 * deduplicated), statuses (from updates, receipts, and folded into upserts), reactions, revokes,
 * edits, group events, contacts and chats, calls and LID mappings. Handlers run one after the
 * other per session, so events keep their order while LIDs are resolved.
 * @module
 */
import {
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  WAMessageStubType,
  type BaileysEventMap,
  type Chat,
  type ChatUpdate,
  type Contact,
  type WAMessageKey,
} from '@whiskeysockets/baileys'
import type { DriverEventName, DriverEvents } from '../driver.js'
import type { CallStatus, ChatInfo, ContactInfo, DeliveryStatus, Me } from '../types.js'
import { numberOf } from './codec.js'
import type { MessageTracker } from './caches.js'
import type { GroupCache } from './groups.js'
import { learnParticipants } from './groups.js'
import type { IdentityTable } from './identity.js'
import { deliveryStatusOf, toInbound, userContentType } from './inbound.js'
import type { BaileysSocket } from './socket.js'
import { bodyOf } from './inbound.js'

/** What the event wiring needs from its session runtime. */
export interface EventSink {
  readonly sessionId: string
  readonly identity: IdentityTable
  readonly groups: GroupCache
  me(): Me | undefined
  nowSec(): number
  emit<E extends DriverEventName>(event: E, payload: DriverEvents[E]): void
  /** Runs after every task queued before it. */
  enqueue(task: () => Promise<void>): void
  readonly tracker: MessageTracker
}

const CALL_STATUS: Record<string, CallStatus> = { offer: 'offer', accept: 'accept', reject: 'reject', timeout: 'timeout' }

type Handlers = { [E in keyof BaileysEventMap]?: (payload: BaileysEventMap[E]) => Promise<void> }

export function attachEvents(sink: EventSink, sock: BaileysSocket): () => void {
  const { sessionId, identity } = sink
  const chatOf = async (jid: string | null | undefined, alt?: string | null) =>
    (await identity.resolve(jid, alt))?.jid ?? jid ?? ''

  const emitStatus = async (
    key: { id?: string | null; remoteJid?: string | null; remoteJidAlt?: string; fromMe?: boolean | null },
    status: DeliveryStatus | undefined,
    participant?: string,
  ) => {
    // 'pending' is what our own send starts as: the gateway already recorded it, and repeating it
    // after a later status would move the message backwards.
    // Statuses are about our own messages; Baileys also reports the read state of received ones.
    if (!status || status === 'pending' || !key.fromMe || !key.id || !key.remoteJid) return
    if (!participant && !sink.tracker.statusAdvances(key.id, status)) return
    const payload: DriverEvents['message.status'] = {
      sessionId,
      messageId: key.id,
      chatId: await chatOf(key.remoteJid, key.remoteJidAlt),
      status,
      timestampSec: sink.nowSec(),
    }
    if (participant) payload.participant = participant
    sink.emit('message.status', payload)
  }

  const handlers: Handlers = {
    'messages.upsert': async ({ messages, type }) => {
      for (const message of messages) {
        const key = message.key
        if (!key.id || !key.remoteJid) continue
        if (key.fromMe && sink.tracker.sentByUs(key.id)) {
          await emitStatus(key, deliveryStatusOf(message.status))
          continue
        }
        if (!userContentType(message) || !sink.tracker.firstSeen(key.id)) continue
        const inbound = await toInbound(message, { me: sink.me(), identity, appended: type === 'append' })
        if (inbound) sink.emit('message.received', { sessionId, message: inbound })
      }
    },
    'messages.update': async (updates) => {
      for (const { key, update } of updates) {
        if (!key.id || !key.remoteJid) continue
        if (update.messageStubType === WAMessageStubType.REVOKE && update.message === null) {
          sink.emit('message.revoked', {
            sessionId,
            messageId: key.id,
            chatId: await chatOf(key.remoteJid, key.remoteJidAlt),
            fromMe: key.fromMe === true,
            timestampSec: sink.nowSec(),
          })
          continue
        }
        const edited = update.message?.editedMessage?.message
        if (edited) {
          const type = Object.keys(edited).find((k) => k !== 'messageContextInfo') ?? 'conversation'
          sink.emit('message.edited', {
            sessionId,
            messageId: key.id,
            chatId: await chatOf(key.remoteJid, key.remoteJidAlt),
            text: bodyOf(edited, type),
            timestampSec: numberOf(update.messageTimestamp) || sink.nowSec(),
          })
          continue
        }
        if (update.status !== undefined && update.status !== null) await emitStatus(key, deliveryStatusOf(update.status))
      }
    },
    'message-receipt.update': async (receipts) => {
      for (const { key, receipt } of receipts) {
        const status: DeliveryStatus = receipt.playedTimestamp ? 'played' : receipt.readTimestamp ? 'read' : 'delivered'
        const participant = receipt.userJid ? await chatOf(receipt.userJid) : undefined
        await emitStatus(key, status, participant)
      }
    },
    'messages.reaction': async (reactions) => {
      for (const { key, reaction } of reactions) {
        if (!key.id || !key.remoteJid) continue
        const author = reaction.key as WAMessageKey | null | undefined
        const from = author?.fromMe
          ? (sink.me()?.jid ?? '')
          : await chatOf(author?.participant || author?.remoteJid, author?.participantAlt ?? author?.remoteJidAlt)
        const senderMs = numberOf(reaction.senderTimestampMs)
        sink.emit('message.reaction', {
          sessionId,
          messageId: key.id,
          chatId: await chatOf(key.remoteJid, key.remoteJidAlt),
          from,
          reaction: reaction.text ?? '',
          timestampSec: senderMs > 0 ? Math.floor(senderMs / 1000) : sink.nowSec(),
        })
      }
    },
    'group-participants.update': async ({ id, author, authorPn, participants, action }) => {
      sink.groups.invalidate(id)
      await learnParticipants(identity, participants)
      if (action === 'modify') return
      const jids = await Promise.all(participants.map((p) => chatOf(p.id, p.phoneNumber ?? p.lid)))
      const payload: DriverEvents['group.participants'] = {
        sessionId,
        groupId: id,
        action,
        participants: jids,
        timestampSec: sink.nowSec(),
      }
      const by = author ? await chatOf(author, authorPn) : undefined
      if (by) payload.author = by
      sink.emit('group.participants', payload)
    },
    'groups.update': async (updates) => {
      for (const update of updates) {
        if (!update.id) continue
        sink.groups.invalidate(update.id)
        const changes: DriverEvents['group.update']['updates'] = {}
        if (typeof update.subject === 'string') changes.subject = update.subject
        if (typeof update.desc === 'string') changes.desc = update.desc
        if (typeof update.announce === 'boolean') changes.announce = update.announce
        if (Object.keys(changes).length === 0) continue
        const payload: DriverEvents['group.update'] = { sessionId, groupId: update.id, updates: changes, timestampSec: sink.nowSec() }
        const by = update.author ? await chatOf(update.author, update.authorPn) : undefined
        if (by) payload.author = by
        sink.emit('group.update', payload)
      }
    },
    'groups.upsert': async (groups) => {
      for (const group of groups) {
        sink.groups.set(group)
        await learnParticipants(identity, group.participants ?? [])
      }
    },
    'messaging-history.set': async ({ contacts, chats, lidPnMappings }) => {
      if (lidPnMappings?.length) await identity.learn(lidPnMappings)
      await emitContacts(contacts)
      await emitChats(chats)
    },
    'contacts.upsert': (contacts) => emitContacts(contacts),
    'contacts.update': (contacts) => emitContacts(contacts.filter((c): c is Contact => typeof c.id === 'string')),
    'chats.upsert': (chats) => emitChats(chats),
    // chats.update counts unread messages as increments (the event buffer sums them); the gateway
    // counts messages itself, so only absolute counts (history, new chats) are passed on.
    'chats.update': (chats) => emitChats(chats, { unreadIsDelta: true }),
    'lid-mapping.update': (mapping) => identity.learn([mapping]),
    call: async (calls) => {
      for (const call of calls) {
        const status = CALL_STATUS[call.status]
        if (!status) continue
        sink.emit('call', {
          sessionId,
          callId: call.id,
          from: await chatOf(call.from, call.callerPn),
          status,
          isVideo: call.isVideo === true,
          isGroup: call.isGroup === true,
          timestampSec: Math.floor(call.date.getTime() / 1000),
        })
      }
    },
  }

  async function emitContacts(contacts: Contact[]): Promise<void> {
    if (contacts.length === 0) return
    await identity.learn(contacts.flatMap((c) => [{ lid: c.lid ?? c.id, pn: c.phoneNumber ?? c.id }]))
    const out: ContactInfo[] = []
    for (const c of contacts) {
      const resolved = await identity.resolve(c.id, c.phoneNumber ?? c.lid)
      if (!resolved) continue
      const info: ContactInfo = { id: resolved.jid }
      if (resolved.lid) info.lid = resolved.lid
      if (c.name) info.name = c.name
      if (c.notify) info.notify = c.notify
      if (c.verifiedName !== undefined) info.verifiedName = c.verifiedName
      out.push(info)
    }
    if (out.length > 0) sink.emit('contacts.upsert', { sessionId, contacts: out })
  }

  async function emitChats(chats: (Chat | ChatUpdate)[], opts: { unreadIsDelta?: boolean } = {}): Promise<void> {
    const out: ChatInfo[] = []
    for (const chat of chats) {
      if (!chat.id) continue
      const id = isLidUser(chat.id) || isPnUser(chat.id) ? await chatOf(chat.id) : jidNormalizedUser(chat.id) || chat.id
      const info: ChatInfo = { id }
      if (chat.name) info.name = chat.name
      if (typeof chat.unreadCount === 'number' && !opts.unreadIsDelta) info.unreadCount = Math.max(0, chat.unreadCount)
      const ts = numberOf(chat.conversationTimestamp)
      if (ts > 0) info.timestampSec = ts
      if (typeof chat.archived === 'boolean') info.archived = chat.archived
      out.push(info)
    }
    if (out.length > 0) sink.emit('chats.upsert', { sessionId, chats: out })
  }

  const offs: (() => void)[] = []
  for (const [event, handler] of Object.entries(handlers) as [keyof BaileysEventMap, (p: unknown) => Promise<void>][]) {
    const listener = (payload: unknown) => sink.enqueue(() => handler(payload))
    sock.ev.on(event, listener)
    offs.push(() => sock.ev.off(event, listener))
  }
  return () => offs.forEach((off) => off())
}
