/**
 * Chats and contacts of each session, built from what the network tells (history, contact
 * events, every message) because WhatsApp has no "list chats" query. Stored under
 * `<sessionId>:<jid>` in the `chats` and `contacts` collections.
 * @module
 */
import { isGroupJid, phoneOfJid } from '../addressing/index.js'
import type { ChatInfo, ContactInfo, Jid, MessageRef } from '../network/types.js'
import type { Collection } from '../store/store.js'

export interface ChatRecord {
  id: Jid
  name: string
  unreadCount: number
  timestampSec: number
  archived: boolean
  /** The newest messages (newest first), which chat modifications must name. */
  lastMessages: MessageRef[]
}

export interface ContactRecord {
  id: Jid
  lid?: Jid
  name: string
  notify: string
  verifiedName: string | null
}

const LAST_MESSAGES_KEPT = 3

export class Directory {
  constructor(
    private readonly chats: Collection<ChatRecord>,
    private readonly contacts: Collection<ContactRecord>,
  ) {}

  async chat(sessionId: string, chatId: Jid): Promise<ChatRecord | undefined> {
    return this.chats.get(`${sessionId}:${chatId}`)
  }

  /** Records a message in its chat: newest timestamp, last-message list, unread count. */
  async noteMessage(sessionId: string, ref: MessageRef & { timestampSec: number }, opts: { unread: boolean; name?: string }): Promise<void> {
    const key = `${sessionId}:${ref.chatId}`
    const chat = (await this.chats.get(key)) ?? emptyChat(ref.chatId)
    if (opts.name && !chat.name) chat.name = opts.name
    chat.timestampSec = Math.max(chat.timestampSec, ref.timestampSec)
    const { raw: _raw, ...slim } = ref
    chat.lastMessages = [slim, ...chat.lastMessages.filter((m) => m.id !== ref.id)]
      .sort((a, b) => (b.timestampSec ?? 0) - (a.timestampSec ?? 0))
      .slice(0, LAST_MESSAGES_KEPT)
    if (opts.unread) chat.unreadCount++
    await this.chats.set(key, chat)
  }

  async markRead(sessionId: string, chatId: Jid): Promise<void> {
    const key = `${sessionId}:${chatId}`
    const chat = await this.chats.get(key)
    if (!chat || chat.unreadCount === 0) return
    chat.unreadCount = 0
    await this.chats.set(key, chat)
  }

  async upsertChats(sessionId: string, infos: ChatInfo[]): Promise<void> {
    if (infos.length === 0) return
    const keys = infos.map((c) => `${sessionId}:${c.id}`)
    const existing = await this.chats.getMany(keys)
    const set: [string, ChatRecord][] = infos.map((info, i) => {
      const chat = existing[i] ?? emptyChat(info.id)
      if (info.name !== undefined) chat.name = info.name
      if (info.unreadCount !== undefined) chat.unreadCount = info.unreadCount
      if (info.timestampSec !== undefined) chat.timestampSec = Math.max(chat.timestampSec, info.timestampSec)
      if (info.archived !== undefined) chat.archived = info.archived
      return [keys[i]!, chat]
    })
    await this.chats.batch({ set })
  }

  async upsertContacts(sessionId: string, infos: ContactInfo[]): Promise<void> {
    if (infos.length === 0) return
    const keys = infos.map((c) => `${sessionId}:${c.id}`)
    const existing = await this.contacts.getMany(keys)
    const set: [string, ContactRecord][] = infos.map((info, i) => {
      const contact: ContactRecord = existing[i] ?? { id: info.id, name: '', notify: '', verifiedName: null }
      if (info.lid !== undefined) contact.lid = info.lid
      if (info.name !== undefined) contact.name = info.name
      if (info.notify !== undefined) contact.notify = info.notify
      if (info.verifiedName !== undefined) contact.verifiedName = info.verifiedName
      return [keys[i]!, contact]
    })
    await this.contacts.batch({ set })
  }

  /** The spec's Chat list entries, newest first. */
  async listChats(sessionId: string) {
    const out: { id: Jid; name: string; isGroup: boolean; unreadCount: number; timestamp: number }[] = []
    for await (const [, c] of this.chats.entries(sessionId)) {
      out.push({ id: c.id, name: c.name, isGroup: isGroupJid(c.id), unreadCount: c.unreadCount, timestamp: c.timestampSec })
    }
    return out.sort((a, b) => b.timestamp - a.timestamp)
  }

  /** The spec's Contact list entries, by name then id. */
  async listContacts(sessionId: string) {
    const out: { id: Jid; name: string; notify: string; verifiedName: string | null; phone: string; lid?: Jid }[] = []
    for await (const [, c] of this.contacts.entries(sessionId)) {
      if (isGroupJid(c.id)) continue
      out.push({
        id: c.id,
        name: c.name,
        notify: c.notify,
        verifiedName: c.verifiedName,
        phone: phoneOfJid(c.id) ?? '',
        ...(c.lid === undefined ? {} : { lid: c.lid }),
      })
    }
    return out.sort((a, b) => (a.name || a.notify || a.id).localeCompare(b.name || b.notify || b.id))
  }

  async purge(sessionId: string): Promise<void> {
    await this.chats.clear(sessionId)
    await this.contacts.clear(sessionId)
  }
}

function emptyChat(id: Jid): ChatRecord {
  return { id, name: '', unreadCount: 0, timestampSec: 0, archived: false, lastMessages: [] }
}
