/**
 * Sending: a message from an account (typed on its phone or sent by one of its linked devices)
 * reaches the recipient's inbox or every other member's, is acknowledged at once (`sent`, then
 * `delivered` per receiver) and reaches the linked devices of everyone concerned.
 * @module
 */
import { GatewayError, isGroupJid, isLidJid, isUserJid, normalizeUserJid, unixSeconds } from '@switchboard/core'
import type { Jid, MessageRef, OutboundContent } from '@switchboard/core'
import type { Accounts } from './accounts.js'
import type { Contacts } from './contacts.js'
import type { WorldCore } from './core.js'
import { messageId } from './ids.js'
import { notice } from './notices.js'
import type { MessageRecord } from './records.js'
import { chatOf, inboundView, inboxView, type InboxMessage } from './views.js'

export interface NewMessage {
  /** A user JID (PN or LID form) or a group JID. */
  to: Jid
  content: OutboundContent
  quotedId?: string
}

export class Messages {
  #seq = 0

  constructor(
    private readonly core: WorldCore,
    private readonly accounts: Accounts,
    private readonly contacts: Contacts,
  ) {
    for (const message of core.state.messages.values()) this.#seq = Math.max(this.#seq, message.seq)
  }

  /**
   * Sends as `phone`. `origin` is the linked device that sent it (it gets the acknowledgements
   * but no copy of its own message). Errors: `Number is not registered on WhatsApp`,
   * `Group not found` (unknown group, or the sender is not a member), `Invalid JID format`.
   */
  send(phone: string, input: NewMessage, origin?: string): MessageRecord {
    const sender = this.core.requireAccount(phone)
    const { to, recipients } = this.#route(phone, input.to)
    const message: MessageRecord = {
      id: messageId(this.core.newId),
      seq: ++this.#seq,
      fromPhone: phone,
      to,
      isGroup: isGroupJid(to),
      recipients,
      content: input.content,
      ...(input.quotedId === undefined ? {} : { quotedId: input.quotedId }),
      atMs: this.core.now(),
      receipts: Object.fromEntries(recipients.map((r) => [r, { deliveredAtMs: this.core.now() }])),
      reactions: {},
      edits: [],
      starredBy: [],
    }
    this.core.state.messages.set(message.id, message)
    this.core.touch('messages', message.id)

    const timestampSec = unixSeconds(message.atMs)
    const status = (status: 'sent' | 'delivered', participant?: Jid) =>
      notice('message.status', {
        messageId: message.id,
        chatId: message.to,
        status,
        timestampSec,
        ...(participant === undefined ? {} : { participant }),
      })
    this.core.toAccount(phone, status('sent'))
    this.core.toAccount(phone, notice('message.received', { message: inboundView(message, phone, sender) }), origin)
    for (const recipient of recipients) {
      this.core.toAccount(recipient, notice('message.received', { message: inboundView(message, recipient, sender) }))
      this.core.toAccount(phone, status('delivered', message.isGroup ? this.core.jidOf(recipient) : undefined))
    }
    return message
  }

  /** The message `ref` names, as `phone` sees it, or `Message not found`. */
  find(phone: string, ref: Pick<MessageRef, 'id' | 'chatId'>): MessageRecord {
    const message = this.core.state.messages.get(ref.id)
    if (!message || !this.visibleTo(message, phone) || !this.inChat(message, phone, ref.chatId)) {
      throw new GatewayError('MESSAGE_NOT_FOUND')
    }
    return message
  }

  /** True when `message` belongs to `chatId` as `phone` sees it (PN, LID and `c.us` forms agree). */
  inChat(message: MessageRecord, phone: string, chatId: Jid): boolean {
    const chat = isGroupJid(chatId) ? chatId : this.#userChat(chatId)
    return chat === chatOf(message, phone)
  }

  visibleTo(message: MessageRecord, phone: string): boolean {
    return message.fromPhone === phone || message.recipients.includes(phone)
  }

  /** Every message `phone` received, oldest first. */
  inbox(phone: string): InboxMessage[] {
    this.core.requireAccount(phone)
    const now = this.core.now()
    return [...this.core.state.messages.values()]
      .filter((message) => message.recipients.includes(phone))
      .sort((a, b) => a.seq - b.seq)
      .map((message) => inboxView(message, phone, now))
  }

  /** Messages between `phone` and others, oldest first (for chat listings). */
  involving(phone: string): MessageRecord[] {
    return [...this.core.state.messages.values()].filter((m) => this.visibleTo(m, phone)).sort((a, b) => a.seq - b.seq)
  }

  #route(phone: string, to: Jid): { to: Jid; recipients: string[] } {
    if (isGroupJid(to)) {
      const group = this.core.state.groups.get(to)
      if (!group || !group.participants.some((member) => member.phone === phone)) throw new GatewayError('GROUP_NOT_FOUND')
      return { to, recipients: group.participants.map((member) => member.phone).filter((member) => member !== phone) }
    }
    if (!isUserJid(to) && !isLidJid(to)) throw new GatewayError('INVALID_JID')
    const recipient = this.accounts.resolve(isLidJid(to) ? to : normalizeUserJid(to))
    if (recipient === undefined) throw new GatewayError('NUMBER_NOT_REGISTERED')
    // spec (WhatsApp): a blocked sender's message is accepted but never delivered (one tick).
    const delivered = recipient !== phone && !this.contacts.hasBlocked(recipient, phone)
    return { to: this.core.jidOf(recipient), recipients: delivered ? [recipient] : [] }
  }

  #userChat(chatId: Jid): Jid {
    const phone = this.accounts.resolve(isLidJid(chatId) ? chatId : normalizeUserJid(chatId))
    return phone === undefined ? chatId : this.core.jidOf(phone)
  }
}
