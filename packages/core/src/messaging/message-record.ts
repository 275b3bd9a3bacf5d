/**
 * The gateway's record of every message it sends and receives: what the spec's operations need
 * to quote, edit, delete, react to and download a message later, and the usage statistics.
 * Stored under `<sessionId>:<messageId>` in the `messages` collection.
 * @module
 */
import type { DeliveryStatus, DriverRaw, InboundType, Jid, MessageRef, OutboundType } from '../network/types.js'

export interface MessageRecord {
  id: string
  sessionId: string
  chatId: Jid
  from: Jid
  to: Jid
  fromMe: boolean
  isGroup: boolean
  participant?: Jid
  /** Outbound: the send type (`text`, `image`, …); inbound: the spec's message type. */
  type: OutboundType | InboundType
  body: string
  timestampSec: number
  status: DeliveryStatus | 'received'
  quotedMessageId?: string
  media?: { mimetype: string; filename?: string; sizeBytes?: number }
  pushName?: string
  editedAtSec?: number
  revoked?: boolean
  reactions?: Record<string, string>
  raw?: DriverRaw
}

/** Statuses only move forward (a late `delivered` never undoes `read`). */
const STATUS_RANK: Record<MessageRecord['status'], number> = {
  failed: -1,
  pending: 0,
  received: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  played: 4,
}

export function advancesStatus(current: MessageRecord['status'], next: DeliveryStatus): boolean {
  if (next === 'failed') return current === 'pending' || current === 'sent'
  return STATUS_RANK[next] > STATUS_RANK[current]
}

export function recordKey(sessionId: string, messageId: string): string {
  return `${sessionId}:${messageId}`
}

/** The network address of a recorded message. */
export function refOf(record: MessageRecord): MessageRef {
  return {
    id: record.id,
    chatId: record.chatId,
    fromMe: record.fromMe,
    ...(record.participant === undefined ? {} : { participant: record.participant }),
    timestampSec: record.timestampSec,
    ...(record.raw === undefined ? {} : { raw: record.raw }),
  }
}
