/**
 * What a logged-in companion sends besides IQs: messages (decrypted by the recipients' phones),
 * receipts, presence and chat states. Each becomes a {@link WireEvent} for the world.
 * @module
 */
import type { proto } from '@whiskeysockets/baileys'
import type { WaEmulator } from './emulator.js'
import { presenceNode } from './outbox.js'
import type { WireConnection } from './connection.js'
import { toWireDevice } from './devices.js'
import { handleGroupMessage } from './group-relay.js'
import { decodeJid, isGroup, pnJid } from './jids.js'
import { child, children, node, type BinaryNode } from './nodes.js'
import type { WireChatState, WireReceiptStatus } from './wire-world.js'

export async function handleClientStanza(em: WaEmulator, conn: WireConnection, stanza: BinaryNode): Promise<void> {
  switch (stanza.tag) {
    case 'message':
      return onMessage(em, conn, stanza)
    case 'receipt':
      return onReceipt(em, conn, stanza)
    case 'presence':
      return onPresence(em, conn, stanza)
    case 'chatstate':
      return onChatState(em, conn, stanza)
    case 'ack':
      if (stanza.attrs.id) em.acknowledged(conn, [stanza.attrs.id])
      return
    case 'call':
      conn.send(node('ack', { id: stanza.attrs.id, class: 'call', from: stanza.attrs.to }))
      return
    default:
      return
  }
}

async function onMessage(em: WaEmulator, conn: WireConnection, stanza: BinaryNode): Promise<void> {
  const me = await em.deviceOf(conn)
  const to = stanza.attrs.to
  const id = stanza.attrs.id
  if (!me || !to || !id) return
  const nowSec = em.nowSec()
  conn.send(node('ack', { id, class: 'message', from: to, t: String(nowSec) }))
  if (stanza.attrs.category === 'peer') return
  if (isGroup(to)) return handleGroupMessage(em, conn, me, stanza)
  const recipient = await em.accountOfJid(to)
  if (!recipient) return
  let message: proto.IMessage | undefined
  const sender = { lid: me.account.lid, deviceId: me.device.deviceId }
  for (const target of children(child(stanza, 'participants'), 'to')) {
    const decoded = decodeJid(target.attrs.jid)
    const enc = child(target, 'enc')
    const account = await em.accountOfJid(target.attrs.jid)
    if (!decoded || decoded.device !== 0 || !account || !enc) continue
    const phone = await em.phones.get(account.phone)
    const plain = await em.decryptFrom(phone, sender, enc)
    if (account.phone === recipient.phone) message = plain
  }
  if (!message) return
  await em.world.receive({
    type: 'message',
    device: toWireDevice(me.device),
    to: pnJid(recipient.phone),
    id,
    timestampSec: nowSec,
    message,
  })
}

const RECEIPT_STATUS: Record<string, WireReceiptStatus> = {
  '': 'delivered',
  inactive: 'delivered',
  read: 'read',
  'read-self': 'read',
  played: 'played',
  'played-self': 'played',
}

async function onReceipt(em: WaEmulator, conn: WireConnection, stanza: BinaryNode): Promise<void> {
  const { id, to, type = '', participant } = stanza.attrs
  conn.send(node('ack', { id, class: 'receipt', from: to, type: type || undefined, participant }))
  const me = await em.deviceOf(conn)
  const status = RECEIPT_STATUS[type]
  if (!id) return
  const ids = [id, ...children(child(stanza, 'list'), 'item').map((i) => i.attrs.id!).filter(Boolean)]
  em.acknowledged(conn, ids)
  if (!me || !status || !to) return
  let chat = to
  if (!isGroup(to)) {
    const account = await em.accountOfJid(to)
    if (!account) return
    chat = pnJid(account.phone)
  }
  const author = participant ? await em.accountOfJid(participant) : undefined
  await em.world.receive({
    type: 'receipt',
    device: toWireDevice(me.device),
    chat,
    ...(author ? { participant: author.phone } : {}),
    ids,
    status,
  })
}

async function onPresence(em: WaEmulator, conn: WireConnection, stanza: BinaryNode): Promise<void> {
  const me = await em.deviceOf(conn)
  if (!me) return
  const { type, to } = stanza.attrs
  if (type === 'subscribe' && to) {
    const other = await em.accountOfJid(to)
    if (!other) return
    const presence = (await em.world.presenceOf?.(other.phone)) ?? { available: false }
    conn.send(presenceNode(other.phone, presence.available, presence.lastSeenSec))
    return
  }
  if (type === 'available' || type === 'unavailable') {
    await em.world.receive({ type: 'presence', device: toWireDevice(me.device), available: type === 'available' })
  }
}

async function onChatState(em: WaEmulator, conn: WireConnection, stanza: BinaryNode): Promise<void> {
  const me = await em.deviceOf(conn)
  const first = children(stanza)[0]
  const other = await em.accountOfJid(stanza.attrs.to)
  if (!me || !first || !other) return
  const state: WireChatState =
    first.tag === 'composing' ? (first.attrs.media === 'audio' ? 'recording' : 'composing') : 'paused'
  await em.world.receive({ type: 'chatstate', device: toWireDevice(me.device), to: pnJid(other.phone), state })
}
