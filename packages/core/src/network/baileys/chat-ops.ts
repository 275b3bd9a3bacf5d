/**
 * Chat-level operations: archive, unarchive, mark unread, delete (app-state patches that need the
 * chat's last message from the gateway's records), presence and read receipts.
 * @module
 */
import { isJidGroup, type MinimalMessage, type WAMessageKey } from '@whiskeysockets/baileys'
import type { ChatOp, ChatOpResults, OpOf } from '../operations.js'
import type { MessageRef } from '../types.js'
import { keyOf } from './content.js'
import { translated } from './errors.js'
import type { BaileysSocket } from './socket.js'

/**
 * The `lastMessages` list of a chat patch: the newest recorded message with a timestamp (Baileys
 * rejects entries without one, and group messages from others need their participant).
 */
export function lastMessagesOf(chatId: string, refs: MessageRef[]): MinimalMessage[] {
  const usable = refs
    .filter((ref) => (ref.timestampSec ?? 0) > 0)
    .filter((ref) => ref.fromMe || !isJidGroup(chatId) || ref.participant !== undefined || keyOf(ref).participant)
    .sort((a, b) => (b.timestampSec ?? 0) - (a.timestampSec ?? 0))
  const newest = usable[0]
  return newest ? [{ key: keyOf(newest), messageTimestamp: newest.timestampSec! }] : []
}

function readKeyOf(ref: MessageRef): WAMessageKey {
  return { ...keyOf(ref), fromMe: false }
}

export async function runChatOp<K extends ChatOp['op']>(sock: BaileysSocket, op: OpOf<ChatOp, K>): Promise<ChatOpResults[K]> {
  await chatOp(sock, op as ChatOp)
  return undefined as ChatOpResults[K]
}

async function chatOp(sock: BaileysSocket, op: ChatOp): Promise<void> {
  switch (op.op) {
    case 'archive':
    case 'unarchive':
      await translated('chat', () =>
        sock.chatModify({ archive: op.op === 'archive', lastMessages: lastMessagesOf(op.chatId, op.lastMessages) }, op.chatId),
      )
      break
    case 'markUnread':
      await translated('chat', () =>
        sock.chatModify({ markRead: false, lastMessages: lastMessagesOf(op.chatId, op.lastMessages) }, op.chatId),
      )
      break
    case 'delete':
      await translated('chat', () =>
        sock.chatModify({ delete: true, lastMessages: lastMessagesOf(op.chatId, op.lastMessages) }, op.chatId),
      )
      break
    case 'presence':
      await translated('chat', () => sock.sendPresenceUpdate(op.state, op.chatId))
      break
    case 'read': {
      const keys = op.messages.filter((ref) => !ref.fromMe).map(readKeyOf)
      if (keys.length > 0) await translated('chat', () => sock.readMessages(keys))
      break
    }
  }
}
