/**
 * An account's chat list (archived, marked unread, deleted) and the typing indicators it sends.
 * Chat-list state belongs to the account, so every linked device shares it, as WhatsApp syncs it.
 * @module
 */
import { GatewayError, isGroupJid, isLidJid, isUserJid, normalizeUserJid, phoneOfJid } from '@switchboard/core'
import type { ChatInfo, Jid, PresenceState } from '@switchboard/core'
import type { Accounts } from './accounts.js'
import type { WorldCore } from './core.js'
import type { Messages } from './messages.js'
import type { ChatRecord } from './records.js'
import { chatOf } from './views.js'

/** A typing indicator one account shows another (or a group). */
export interface PresenceRecord {
  /** Who is typing. */
  from: Jid
  /** The chat as the observer sees it: the typist (1:1) or the group. */
  chatId: Jid
  state: PresenceState
  atMs: number
}

/** WhatsApp drops a typing indicator after about 10 seconds without news. */
export const PRESENCE_TTL_MS = 10_000

export class Chats {
  /** `<from phone>|<chat JID>` → state; not persisted (presence is ephemeral). */
  readonly #presence = new Map<string, { state: PresenceState; atMs: number }>()

  constructor(
    private readonly core: WorldCore,
    private readonly accounts: Accounts,
    private readonly messages: Messages,
  ) {}

  archive(phone: string, chatId: Jid, archived: boolean): void {
    this.#update(phone, chatId, (chat) => {
      chat.archived = archived
    })
  }

  markUnread(phone: string, chatId: Jid): void {
    this.#update(phone, chatId, (chat) => {
      chat.markedUnread = true
    })
  }

  /** Clears the mark set by {@link markUnread} (reading does this too). */
  markRead(phone: string, chatId: Jid): void {
    if (!this.chat(phone, chatId).markedUnread) return
    this.#update(phone, chatId, (chat) => {
      chat.markedUnread = false
    })
  }

  delete(phone: string, chatId: Jid): void {
    this.#update(phone, chatId, (chat) => {
      chat.deletedAtMs = this.core.now()
      chat.archived = false
      chat.markedUnread = false
    })
  }

  chat(phone: string, chatId: Jid): ChatRecord {
    return this.core.state.chats.get(`${phone}:${this.#chatJid(chatId)}`) ?? { archived: false, markedUnread: false }
  }

  /** The account's chats, most recent first: 1:1 chats with messages since any deletion, and its groups. */
  list(phone: string): ChatInfo[] {
    this.core.requireAccount(phone)
    const latest = new Map<Jid, number>()
    const unread = new Map<Jid, number>()
    for (const message of this.messages.involving(phone)) {
      const chatId = chatOf(message, phone)
      const deletedAt = this.chat(phone, chatId).deletedAtMs
      if (deletedAt !== undefined && message.atMs <= deletedAt) continue
      latest.set(chatId, message.atMs)
      if (message.recipients.includes(phone) && message.receipts[phone]?.readAtMs === undefined) {
        unread.set(chatId, (unread.get(chatId) ?? 0) + 1)
      }
    }
    for (const group of this.core.state.groups.values()) {
      const member = group.participants.find((m) => m.phone === phone)
      if (member && !latest.has(group.id)) latest.set(group.id, member.joinedAtMs)
    }
    return [...latest]
      .sort(([, a], [, b]) => b - a)
      .map(([id, atMs]) => {
        const state = this.chat(phone, id)
        const name = isGroupJid(id) ? this.core.state.groups.get(id)?.subject : this.core.account(phoneOfJid(id) ?? '')?.name
        return {
          id,
          ...(name === undefined ? {} : { name }),
          unreadCount: (unread.get(id) ?? 0) + (state.markedUnread ? 1 : 0),
          timestampSec: Math.floor(atMs / 1000),
          archived: state.archived,
        }
      })
  }

  /** `phone` shows `state` in `chatId`. */
  presence(phone: string, chatId: Jid, state: PresenceState): void {
    this.core.requireAccount(phone)
    this.#presence.set(`${phone}|${this.#chatJid(chatId)}`, { state, atMs: this.core.now() })
  }

  /** Typing indicators `phone` currently sees (fresher than {@link PRESENCE_TTL_MS}), newest first. */
  presencesFor(phone: string): PresenceRecord[] {
    const me = this.core.jidOf(phone)
    const now = this.core.now()
    const out: PresenceRecord[] = []
    for (const [key, value] of this.#presence) {
      const [from, chat] = key.split('|') as [string, Jid]
      if (from === phone || now - value.atMs > PRESENCE_TTL_MS) continue
      const inGroup = isGroupJid(chat) && this.core.state.groups.get(chat)?.participants.some((m) => m.phone === phone)
      if (chat === me || inGroup) out.push({ from: this.core.jidOf(from), chatId: inGroup ? chat : this.core.jidOf(from), ...value })
    }
    return out.sort((a, b) => b.atMs - a.atMs)
  }

  #update(phone: string, chatId: Jid, change: (chat: ChatRecord) => void): void {
    this.core.requireAccount(phone)
    const key = `${phone}:${this.#chatJid(chatId)}`
    const chat = { ...(this.core.state.chats.get(key) ?? { archived: false, markedUnread: false }) }
    change(chat)
    this.core.state.chats.set(key, chat)
    this.core.touch('chats', key)
  }

  /** Group JIDs as they are; user JIDs in PN form (`Invalid JID format` for anything else). */
  #chatJid(chatId: Jid): Jid {
    if (isGroupJid(chatId)) return chatId
    if (!isUserJid(chatId) && !isLidJid(chatId)) throw new GatewayError('INVALID_JID')
    const phone = this.accounts.resolve(isLidJid(chatId) ? chatId : normalizeUserJid(chatId))
    return phone === undefined ? normalizeUserJid(chatId) : this.core.jidOf(phone)
  }
}
