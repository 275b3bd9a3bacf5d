/**
 * The durable records of the webhook outbox and the collections holding them.
 * @module
 */
import type { GatewayEventName } from '../schemas/events.js'

/** Collection of pending deliveries, keyed `<sessionId>:<deliveryId>`. */
export const DELIVERIES_COLLECTION = 'webhook-deliveries'
/** Collection of deliveries given up after the retry period, keyed like the pending ones. */
export const DEAD_LETTERS_COLLECTION = 'webhook-dead-letters'

/** One event waiting to be delivered to its session's webhook. */
export interface WebhookDelivery {
  /** The `webhook-id` header: the same on every attempt of this event. */
  id: string
  sessionId: string
  event: GatewayEventName
  /** The exact JSON body, serialized once at enqueue so every attempt posts the same bytes. */
  body: string
  /** Epoch ms. The retry period counts from here. */
  createdAt: number
  /** Orders deliveries created in the same millisecond (FIFO per session). */
  seq: number
  /** Failed attempts so far. */
  attempts: number
  /** Epoch ms when the next attempt is due. */
  nextAttemptAt: number
  /** Why the last attempt failed (`HTTP 503`, `timeout after 5000 ms`, `fetch failed (ECONNREFUSED)`). */
  lastError: string | null
}

/** A delivery given up after the retry period. */
export interface WebhookDeadLetter extends WebhookDelivery {
  /** Epoch ms. */
  deadLetteredAt: number
}

/** The store key of a delivery. */
export function deliveryKey(sessionId: string, id: string): string {
  return `${sessionId}:${id}`
}
