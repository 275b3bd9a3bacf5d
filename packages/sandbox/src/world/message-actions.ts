/**
 * What parties do with an existing message: react, edit, delete for everyone, pin, star, read,
 * download its media. Time windows (edit ~15 min, delete ~48 h) are the gateway's business.
 * @module
 */
import { GatewayError, isGroupJid, unixSeconds } from '@switchboard/core'
import type { Jid, MediaPayload, MessageRef } from '@switchboard/core'
import type { WorldCore } from './core.js'
import type { Messages } from './messages.js'
import { notice } from './notices.js'
import type { MessageRecord } from './records.js'
import { chatOf, partiesOf } from './views.js'

type Ref = Pick<MessageRef, 'id' | 'chatId'>

export class MessageActions {
  constructor(
    private readonly core: WorldCore,
    private readonly messages: Messages,
  ) {}

  /** Reacts as `phone`; an empty emoji removes its reaction. Deleted messages take no reactions. */
  react(phone: string, ref: Ref, emoji: string, origin?: string): void {
    const message = this.#live(phone, ref)
    if (emoji === '') delete message.reactions[phone]
    else message.reactions[phone] = { emoji, atMs: this.core.now() }
    this.core.touch('messages', message.id)
    const from = this.core.jidOf(phone)
    const timestampSec = this.core.nowSec()
    for (const party of partiesOf(message)) {
      this.core.toAccount(
        party,
        notice('message.reaction', { messageId: message.id, chatId: chatOf(message, party), from, reaction: emoji, timestampSec }),
        origin,
      )
    }
  }

  /** Only the sender may edit, and only a text: `Message cannot be edited (too old or not sent by you)`. */
  edit(phone: string, ref: Ref, text: string, origin?: string): void {
    const message = this.messages.find(phone, ref)
    if (message.fromPhone !== phone || message.revoked || message.content.type !== 'text') {
      throw new GatewayError('MESSAGE_NOT_EDITABLE')
    }
    message.edits.push({ text, atMs: this.core.now() })
    this.core.touch('messages', message.id)
    const timestampSec = this.core.nowSec()
    for (const party of partiesOf(message)) {
      this.core.toAccount(party, notice('message.edited', { messageId: message.id, chatId: chatOf(message, party), text, timestampSec }), origin)
    }
  }

  /**
   * Deletes for everyone: the sender, or a group admin for any message of the group; otherwise
   * `Message cannot be deleted (too old or not sent by you)`. Deleting twice changes nothing.
   */
  revoke(phone: string, ref: Ref, origin?: string): void {
    const message = this.messages.find(phone, ref)
    if (message.fromPhone !== phone && !this.#isGroupAdmin(message, phone)) throw new GatewayError('MESSAGE_NOT_DELETABLE')
    if (message.revoked) return
    message.revoked = { byPhone: phone, atMs: this.core.now() }
    delete message.pinned
    message.reactions = {}
    this.core.touch('messages', message.id)
    const timestampSec = this.core.nowSec()
    for (const party of partiesOf(message)) {
      this.core.toAccount(
        party,
        notice('message.revoked', { messageId: message.id, chatId: chatOf(message, party), fromMe: party === message.fromPhone, timestampSec }),
        origin,
      )
    }
  }

  pin(phone: string, ref: Ref, durationSec: number): void {
    const message = this.#live(phone, ref)
    message.pinned = { byPhone: phone, untilMs: this.core.now() + durationSec * 1000 }
    this.core.touch('messages', message.id)
  }

  unpin(phone: string, ref: Ref): void {
    const message = this.messages.find(phone, ref)
    delete message.pinned
    this.core.touch('messages', message.id)
  }

  /** Stars are personal: only `phone` sees them. */
  star(phone: string, ref: Ref, star: boolean): void {
    const message = this.messages.find(phone, ref)
    message.starredBy = message.starredBy.filter((p) => p !== phone)
    if (star) message.starredBy.push(phone)
    this.core.touch('messages', message.id)
  }

  /**
   * `phone` reads messages it received in `chatId`; each sender's devices get `read` (with the
   * reader as `participant` in groups). With `strict`, an id that is not such a message is
   * `Message not found` (the control API); otherwise it is skipped, as WhatsApp ignores it.
   * Returns how many messages became read.
   */
  read(phone: string, chatId: Jid, ids: readonly string[], options: { strict?: boolean; origin?: string } = {}): number {
    this.core.requireAccount(phone)
    const found: MessageRecord[] = []
    for (const id of ids) {
      const message = this.core.state.messages.get(id)
      const ok = message !== undefined && message.recipients.includes(phone) && this.messages.inChat(message, phone, chatId)
      if (ok) found.push(message)
      else if (options.strict) throw new GatewayError('MESSAGE_NOT_FOUND')
    }
    let count = 0
    const timestampSec = this.core.nowSec()
    for (const message of found) {
      const receipt = message.receipts[phone]
      if (!receipt || receipt.readAtMs !== undefined) continue
      receipt.readAtMs = this.core.now()
      count++
      this.core.touch('messages', message.id)
      this.core.toAccount(
        message.fromPhone,
        notice('message.status', {
          messageId: message.id,
          chatId: chatOf(message, message.fromPhone),
          status: 'read',
          timestampSec,
          ...(message.isGroup ? { participant: this.core.jidOf(phone) } : {}),
        }),
      )
    }
    return count
  }

  /** The media of a message `phone` can see, or `Message not found`. */
  media(phone: string, ref: Ref): MediaPayload {
    const message = this.#live(phone, ref)
    const content = message.content
    if (!('media' in content)) throw new GatewayError('MESSAGE_NOT_FOUND')
    const { data, mimetype, filename } = content.media
    return { data: Buffer.from(data), mimetype, ...(filename === undefined ? {} : { filename }) }
  }

  /** Unix seconds of the last message `phone` can see in `chatId`, if any. */
  lastActivitySec(phone: string, chatId: Jid): number | undefined {
    const last = this.messages.involving(phone).filter((m) => chatOf(m, phone) === chatId).at(-1)
    return last === undefined ? undefined : unixSeconds(last.atMs)
  }

  #live(phone: string, ref: Ref): MessageRecord {
    const message = this.messages.find(phone, ref)
    if (message.revoked) throw new GatewayError('MESSAGE_NOT_FOUND')
    return message
  }

  #isGroupAdmin(message: MessageRecord, phone: string): boolean {
    if (!isGroupJid(message.to)) return false
    const member = this.core.state.groups.get(message.to)?.participants.find((p) => p.phone === phone)
    return member !== undefined && member.admin !== null
  }
}
