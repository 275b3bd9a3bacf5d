/**
 * What the world sends to companion devices, as stanzas: messages encrypted by the sender's
 * phone (Signal 1:1, or sender keys in groups), receipts, chat states, presence and group
 * notifications. Messages for a device that is offline wait in its queue (persisted) and go out
 * marked `offline` at its next login; a message sent but not acknowledged when the socket closes
 * goes back into the queue.
 * @module
 */
import { encodeWAMessage, proto, unpadRandomMax16 } from '@whiskeysockets/baileys'
import { stanzaId, type WireConnection } from './connection.js'
import type { DeviceRecord } from './devices.js'
import type { WaEmulator } from './emulator.js'
import { historyBootstrap } from './history.js'
import { lidJid, pnJid } from './jids.js'
import { node, type BinaryNode } from './nodes.js'
import type { Phone } from './phone.js'
import type { WireAccount, WireChatState, WireReceiptStatus } from './wire-world.js'

/** Something the world sends to one account's companion devices. */
export interface MessageDelivery {
  /** Sender's phone. */
  from: string
  /** Recipient's phone. */
  to: string
  /** The group, for group messages. */
  group?: string
  id: string
  timestampSec: number
  message: proto.IMessage
  /** Shown as `notify` (the sender's push name). */
  pushName?: string
}

export interface ReceiptDelivery {
  /** Phone of the original sender (whose devices get the receipt). */
  to: string
  /** Phone of the reader. */
  from: string
  group?: string
  ids: string[]
  status: WireReceiptStatus
  timestampSec: number
}

/** A change in a group, for its members' devices. */
export type GroupChange = { group: string; author?: string; timestampSec: number } & (
  | { action: 'add' | 'remove' | 'promote' | 'demote'; participants: string[] }
  | { subject?: string; description?: string; announce?: boolean }
)

/** A message waiting for (or sent to and not yet acknowledged by) a device. */
interface Pending {
  kind: 'message'
  delivery: Omit<MessageDelivery, 'message'> & { message: Uint8Array }
}

type DeviceKey = { phone: string; deviceId: number }

const queueKey = (d: DeviceKey): string => `queue:${d.phone}:${d.deviceId}`

export class Outbox {
  /** Work per device runs in order, so Signal ratchets advance in the order stanzas leave. */
  readonly #chains = new Map<string, Promise<unknown>>()

  constructor(private readonly em: WaEmulator) {}

  /** Encrypts a message from `from`'s phone to every linked device of `to`. */
  async message(delivery: MessageDelivery): Promise<void> {
    const targets = await this.em.devices.ofAccount(delivery.to)
    const item: Pending = { kind: 'message', delivery: { ...delivery, message: encodeWAMessage(delivery.message) } }
    await Promise.all(targets.map((d) => this.#onDevice(d, () => this.#deliver(d, item))))
  }

  /** Tells `to`'s devices that `from` received, read or played their messages. */
  async receipt(r: ReceiptDelivery): Promise<void> {
    const [first, ...rest] = r.ids
    if (first === undefined) return
    const type = r.status === 'delivered' ? undefined : r.status
    const attrs = r.group
      ? { from: r.group, participant: pnJid(r.from), id: first, t: String(r.timestampSec), type }
      : { from: pnJid(r.from), id: first, t: String(r.timestampSec), type }
    await this.#toAccount(r.to, node('receipt', attrs, rest.length ? [node('list', {}, rest.map((id) => node('item', { id })))] : undefined))
  }

  /** Tells `to`'s devices that `from` is typing, recording or paused. */
  chatState(to: string, from: string, state: WireChatState): Promise<void> {
    const what = state === 'recording' ? node('composing', { media: 'audio' }) : node(state)
    return this.#toAccount(to, node('chatstate', { from: pnJid(from) }, [what]))
  }

  /** Tells `to`'s devices whether `from` is online. */
  presence(to: string, from: string, available: boolean, lastSeenSec?: number): Promise<void> {
    return this.#toAccount(to, presenceNode(from, available, lastSeenSec))
  }

  /** Tells `to`'s devices about a change in a group (`w:gp2`). */
  async groupChange(to: string, change: GroupChange): Promise<void> {
    await this.#toAccount(to, await this.#groupNotification(change))
  }

  /** The phone sends its own companion a protocol message (history sync, app-state keys, …). */
  async fromOwnPhone(d: DeviceRecord, message: proto.IMessage): Promise<void> {
    await this.#onDevice(d, async () => {
      const account = await this.em.world.account(d.phone)
      const conn = this.em.connectionOf(d.phone, d.deviceId)
      if (!account || !conn) return
      const enc = await this.em.encryptFor(await this.em.phones.get(d.phone), account, d, encodeWAMessage(message))
      conn.send(node('message', { from: pnJid(d.phone), id: stanzaId(), t: String(this.em.nowSec()), type: 'text', category: 'peer' }, [enc]))
    })
  }

  /** The history-sync bootstrap a newly linked companion waits for. */
  async historyBootstrap(d: DeviceRecord): Promise<void> {
    const account = await this.em.world.account(d.phone)
    if (account) await this.fromOwnPhone(d, await historyBootstrap(account, this.em.nowSec()))
  }

  /** Sends what waited for a device that just logged in; returns how many. */
  flush(d: DeviceRecord, conn: WireConnection): Promise<number> {
    return this.#onDevice(d, async () => {
      const queue = (await this.em.state.get<Pending[]>(queueKey(d))) ?? []
      if (!queue.length) return 0
      await this.em.state.delete(queueKey(d))
      for (const item of queue) await this.#send(conn, d, item, true)
      return queue.length
    })
  }

  /** The device acknowledged (acked, received or read) these stanza ids. */
  acknowledged(conn: WireConnection, ids: string[]): void {
    const inflight = inflightOf(conn)
    for (const id of ids) inflight.delete(id)
  }

  /** The device's socket closed: what it did not acknowledge goes back into its queue. */
  closed(conn: WireConnection, d: DeviceKey): void {
    const inflight = inflightOf(conn)
    if (!inflight.size) return
    const items = [...inflight.values()]
    inflight.clear()
    void this.#onDevice(d, async () => {
      const queue = (await this.em.state.get<Pending[]>(queueKey(d))) ?? []
      await this.em.state.set(queueKey(d), [...items, ...queue])
    }).catch((err: unknown) => this.em.logger.warn({ err, device: d }, 'could not requeue deliveries'))
  }

  async #toAccount(phone: string, stanza: BinaryNode): Promise<void> {
    for (const d of await this.em.devices.ofAccount(phone)) this.em.connectionOf(d.phone, d.deviceId)?.send(stanza)
  }

  #onDevice<T>(d: DeviceKey, fn: () => Promise<T>): Promise<T> {
    const key = `${d.phone}:${d.deviceId}`
    const next = (this.#chains.get(key) ?? Promise.resolve()).then(fn, fn)
    this.#chains.set(key, next.catch(() => undefined))
    return next
  }

  async #deliver(d: DeviceRecord, item: Pending): Promise<void> {
    const conn = this.em.connectionOf(d.phone, d.deviceId)
    if (conn) return this.#send(conn, d, item, false)
    const queue = (await this.em.state.get<Pending[]>(queueKey(d))) ?? []
    queue.push(item)
    await this.em.state.set(queueKey(d), queue)
  }

  async #send(conn: WireConnection, d: DeviceRecord, item: Pending, offline: boolean): Promise<void> {
    inflightOf(conn).set(item.delivery.id, item)
    conn.send(await this.#messageStanza(d, item.delivery, offline))
  }

  async #messageStanza(d: DeviceRecord, m: Pending['delivery'], offline: boolean): Promise<BinaryNode> {
    const [sender, target] = await Promise.all([this.em.world.account(m.from), this.em.world.account(d.phone)])
    if (!sender || !target) throw new Error(`unknown account in delivery ${m.from} -> ${d.phone}`)
    const phone = await this.em.phones.get(m.from)
    const content = m.group
      ? await this.#groupContent(phone, sender, target, d, m.group, m.message)
      : [await this.em.encryptFor(phone, target, d, m.message)]
    const addressing = m.group
      ? { from: m.group, participant: pnJid(m.from), participant_lid: lidJid(sender.lid), addressing_mode: 'pn' }
      : { from: pnJid(m.from), sender_lid: lidJid(sender.lid) }
    return node(
      'message',
      {
        ...addressing,
        id: m.id,
        t: String(m.timestampSec),
        type: messageType(proto.Message.decode(unpadRandomMax16(m.message))),
        notify: m.pushName ?? sender.name,
        offline: offline ? '1' : undefined,
      },
      content,
    )
  }

  /** A group message from a phone: its sender key (once per device, over Signal), then the message. */
  async #groupContent(phone: Phone, sender: WireAccount, target: WireAccount, d: DeviceRecord, group: string, bytes: Uint8Array): Promise<BinaryNode[]> {
    const { ciphertext, senderKeyDistributionMessage } = await phone.encryptGroup(group, pnJid(sender.phone), bytes)
    const flag = `skdm:${sender.phone}:${group}:${d.phone}:${d.deviceId}`
    const content: BinaryNode[] = []
    if (!(await this.em.state.get<boolean>(flag))) {
      const distribution = encodeWAMessage({
        senderKeyDistributionMessage: { groupId: group, axolotlSenderKeyDistributionMessage: senderKeyDistributionMessage },
      })
      content.push(await this.em.encryptFor(phone, target, d, distribution))
      await this.em.state.set(flag, true)
    }
    content.push(node('enc', { v: '2', type: 'skmsg' }, Buffer.from(ciphertext)))
    return content
  }

  async #groupNotification(change: GroupChange): Promise<BinaryNode> {
    let what: BinaryNode
    if ('action' in change) {
      const participants = await Promise.all(
        change.participants.map(async (phone) => {
          const account = await this.em.world.account(phone)
          return node('participant', { jid: pnJid(phone), lid: account ? lidJid(account.lid) : undefined })
        }),
      )
      what = node(change.action, {}, participants)
    } else if (change.subject !== undefined) {
      what = node('subject', { subject: change.subject, s_t: String(change.timestampSec), s_o: change.author ? pnJid(change.author) : undefined })
    } else if (change.description !== undefined) {
      what = node('description', { id: stanzaId() }, [node('body', {}, Buffer.from(change.description))])
    } else {
      what = node(change.announce ? 'announcement' : 'not_announcement', {})
    }
    return node(
      'notification',
      { from: change.group, type: 'w:gp2', id: stanzaId(), t: String(change.timestampSec), participant: change.author ? pnJid(change.author) : undefined },
      [what],
    )
  }
}

const inflightOf = (conn: WireConnection): Map<string, Pending> =>
  (conn.context.inflight ??= new Map<string, Pending>()) as Map<string, Pending>

export function presenceNode(from: string, available: boolean, lastSeenSec?: number): BinaryNode {
  return node('presence', {
    from: pnJid(from),
    type: available ? 'available' : 'unavailable',
    last: !available && lastSeenSec !== undefined ? String(lastSeenSec) : undefined,
  })
}

function messageType(m: proto.IMessage): string {
  if (m.reactionMessage) return 'reaction'
  if (m.pollCreationMessage || m.pollCreationMessageV3 || m.pollUpdateMessage) return 'poll'
  if (m.imageMessage || m.videoMessage || m.audioMessage || m.documentMessage || m.stickerMessage) return 'media'
  return 'text'
}
