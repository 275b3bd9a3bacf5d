/**
 * The two directions of the bridge between a wire device and its in-process session: what the
 * device does becomes operations of the session (`applyDeviceEvent`), and what the world tells
 * the session becomes stanzas for the device (`relayNotice`). Message ids cross through an
 * {@link IdMap}: the world's own ids for what the world made, the sender's for what a device sent.
 * @module
 */
import { isGroupJid, phoneOfJid } from '@switchboard/core'
import type { DriverEvents, Logger, MessageRef, NetworkDriver } from '@switchboard/core'
import { proto } from '@whiskeysockets/baileys'
import type { InboxMessage } from '../../world/views.js'
import type { WaEmulator } from './emulator.js'
import type { IdMap } from './id-map.js'
import type { MediaHost } from './media-host.js'
import { intentOf, mediaContent, mediaProto, mediaTypeOf, protoOf } from './proto-content.js'
import type { WireDevice, WireEvent } from './wire-world.js'

/** What both directions share. */
export interface Bridge {
  driver: NetworkDriver
  ids: IdMap
  /** Message senders by world id, for edits and revokes whose notice does not say who did it. */
  senders: Map<string, string>
  logger: Logger
  /** The account's inbox (it carries what driver events leave out: cards, coordinates, polls). */
  inbox(phone: string): Promise<InboxMessage[]>
  /** Where media files are exchanged; without one, media goes over as a text line. */
  media: MediaHost | undefined
}

/** What a device did, as operations of its session. */
export async function applyDeviceEvent(b: Bridge, sessionId: string, event: WireEvent): Promise<void> {
  switch (event.type) {
    case 'message':
      return fromDevice(b, sessionId, event.device, event.to, event.id, event.message)
    case 'receipt':
      if (event.status !== 'read') return
      await b.driver.chat(sessionId, {
        op: 'read',
        chatId: event.chat,
        messages: await Promise.all(event.ids.map(async (id) => ref(await b.ids.toWorld(id), event.chat, false))),
      })
      return
    case 'chatstate':
      await b.driver.chat(sessionId, { op: 'presence', chatId: event.to, state: event.state })
      return
    case 'presence':
      return
  }
}

async function fromDevice(b: Bridge, sessionId: string, device: WireDevice, to: string, wireId: string, message: proto.IMessage): Promise<void> {
  const intent = intentOf(message)
  switch (intent.kind) {
    case 'send': {
      const quoted = intent.quotedId ? ref(await b.ids.toWorld(intent.quotedId), to, false) : undefined
      const sent = await b.driver.send(sessionId, { to, content: intent.content, ...(quoted ? { quoted } : {}) })
      await b.ids.pair(wireId, sent.id)
      b.senders.set(sent.id, device.phone)
      return
    }
    case 'react':
      return b.driver.message(sessionId, {
        op: 'react',
        message: ref(await b.ids.toWorld(intent.targetId), to, intent.targetFromMe),
        emoji: intent.emoji,
      })
    case 'edit':
      return b.driver.message(sessionId, { op: 'edit', message: ref(await b.ids.toWorld(intent.targetId), to, true), text: intent.text })
    case 'revoke':
      return b.driver.message(sessionId, { op: 'revoke', message: ref(await b.ids.toWorld(intent.targetId), to, true) })
    case 'pin': {
      const message = ref(await b.ids.toWorld(intent.targetId), to, intent.targetFromMe)
      return intent.pin
        ? b.driver.message(sessionId, { op: 'pin', message, durationSec: intent.durationSec })
        : b.driver.message(sessionId, { op: 'unpin', message })
    }
    case 'media': {
      const data = await b.media?.get(intent.media.path, intent.media.mediaKey, intent.media.type)
      if (!data) {
        b.logger.warn({ sessionId, path: intent.media.path }, 'wire media file not found or unreadable')
        return
      }
      const quoted = intent.quotedId ? ref(await b.ids.toWorld(intent.quotedId), to, false) : undefined
      const sent = await b.driver.send(sessionId, { to, content: mediaContent(intent.media, data), ...(quoted ? { quoted } : {}) })
      await b.ids.pair(wireId, sent.id)
      b.senders.set(sent.id, device.phone)
      return
    }
    case 'ignore':
      b.logger.debug({ sessionId, reason: intent.reason }, 'wire message not applied to the world')
      return
  }
}

const ref = (id: string, chatId: string, fromMe: boolean): MessageRef => ({ id, chatId, fromMe })

/** What the world told a device's session, as stanzas for the device. */
export async function relayNotice<E extends keyof DriverEvents>(
b: Bridge,
em: WaEmulator,
device: WireDevice,
event: E,
payload: DriverEvents[E],
): Promise<void> {
const to = device.phone
  switch (event) {
    case 'message.received': {
      const { message } = payload as DriverEvents['message.received']
      const from = phoneOfJid(message.from)
      if (!from || message.fromMe) return
      b.senders.set(message.id, from)
      const inbox = message.type === 'conversation' || message.type === 'extendedTextMessage'
        ? undefined
        : (await b.inbox(to)).find((m) => m.id === message.id)
      const quoted = message.quotedMessageId ? await b.ids.toWire(message.quotedMessageId) : undefined
    const mediaType = mediaTypeOf(message.type)
    let content = protoOf(message, inbox, quoted)
    if (mediaType && b.media && device.label) {
      const file = await b.driver.downloadMedia(device.label, { id: message.id, chatId: message.chatId, fromMe: false })
      const stored = await b.media.put(file.data, mediaType)
      content = mediaProto(mediaType, stored, {
        mimetype: file.mimetype,
        ...(message.body ? { caption: message.body } : {}),
        ...(file.filename ? { fileName: file.filename } : {}),
        timestampSec: message.timestampSec,
      }, quoted)
    }
      await em.deliverMessage({
        from,
        to,
        ...(message.isGroup ? { group: message.chatId } : {}),
        id: await b.ids.toWire(message.id),
        timestampSec: message.timestampSec,
        message: content,
        ...(message.pushName ? { pushName: message.pushName } : {}),
      })
      return
    }
    case 'message.status': {
      const p = payload as DriverEvents['message.status']
      if (p.status !== 'delivered' && p.status !== 'read' && p.status !== 'played') return
      const reader = phoneOfJid(isGroupJid(p.chatId) ? (p.participant ?? '') : p.chatId)
      if (!reader) return
      await em.deliverReceipt({
        to,
        from: reader,
        ...(isGroupJid(p.chatId) ? { group: p.chatId } : {}),
        ids: [await b.ids.toWire(p.messageId)],
        status: p.status,
        timestampSec: p.timestampSec,
      })
      return
    }
    case 'message.reaction': {
      const p = payload as DriverEvents['message.reaction']
      const from = phoneOfJid(p.from)
      if (!from || from === to) return
      const targetFromReactor = b.senders.get(p.messageId) === from
      await em.deliverMessage({
        from,
        to,
        ...(isGroupJid(p.chatId) ? { group: p.chatId } : {}),
        id: reactionId(p.messageId, from, p.timestampSec),
        timestampSec: p.timestampSec,
        message: {
          reactionMessage: {
            key: { remoteJid: isGroupJid(p.chatId) ? p.chatId : `${to}@s.whatsapp.net`, fromMe: targetFromReactor, id: await b.ids.toWire(p.messageId) },
            text: p.reaction,
            senderTimestampMs: p.timestampSec * 1000,
          },
        },
      })
      return
    }
    case 'group.participants': {
      const p = payload as DriverEvents['group.participants']
      const author = p.author ? phoneOfJid(p.author) : undefined
      await em.deliverGroupChange(to, {
        group: p.groupId,
        ...(author ? { author } : {}),
        timestampSec: p.timestampSec,
        action: p.action,
        participants: p.participants.map((jid) => phoneOfJid(jid) ?? jid),
      })
      return
    }
    case 'group.update': {
      const p = payload as DriverEvents['group.update']
      const author = p.author ? phoneOfJid(p.author) : undefined
      const base = { group: p.groupId, ...(author ? { author } : {}), timestampSec: p.timestampSec }
      if (p.updates.subject !== undefined) await em.deliverGroupChange(to, { ...base, subject: p.updates.subject })
      if (p.updates.desc !== undefined) await em.deliverGroupChange(to, { ...base, description: p.updates.desc })
      if (p.updates.announce !== undefined) await em.deliverGroupChange(to, { ...base, announce: p.updates.announce })
      return
    }
    case 'message.edited':
    case 'message.revoked': {
      const p = payload as DriverEvents['message.edited'] | DriverEvents['message.revoked']
      const sender = b.senders.get(p.messageId) ?? (isGroupJid(p.chatId) ? undefined : phoneOfJid(p.chatId))
      if (!sender || sender === to) return
      const key = { remoteJid: isGroupJid(p.chatId) ? p.chatId : `${to}@s.whatsapp.net`, fromMe: true, id: await b.ids.toWire(p.messageId) }
      const protocolMessage: proto.Message.IProtocolMessage =
        event === 'message.edited'
          ? { key, type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, editedMessage: { conversation: (p as DriverEvents['message.edited']).text }, timestampMs: p.timestampSec * 1000 }
          : { key, type: proto.Message.ProtocolMessage.Type.REVOKE }
      await em.deliverMessage({
        from: sender,
        to,
        ...(isGroupJid(p.chatId) ? { group: p.chatId } : {}),
        id: `${event === 'message.edited' ? 'ED' : 'RV'}${key.id}${p.timestampSec}`,
        timestampSec: p.timestampSec,
        message: { protocolMessage },
      })
      return
    }
  }
}

const reactionId = (messageId: string, from: string, t: number): string =>
  `RX${Buffer.from(`${messageId}:${from}:${t}`).toString('hex').slice(0, 28).toUpperCase()}`
