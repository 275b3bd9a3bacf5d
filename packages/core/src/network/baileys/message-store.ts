/**
 * The messages this driver sent, kept in the session's AuthStore so Baileys' `getMessage` can
 * answer retry receipts after a restart (otherwise the recipient sees "Waiting for this message").
 * A ring of {@link SENT_MESSAGE_SLOTS} slots bounds the space: each save is one atomic write that
 * also drops the message the slot held before.
 * @module
 */
import { proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys'
import type { AuthStore } from '../driver.js'
import { fromStored, toJsonSafe } from './codec.js'

export const SENT_MESSAGE_SLOTS = 2_000
const MESSAGES = 'sb-msg'
const SLOTS = 'sb-msg-slot'
const CURSOR = 'sb-msg-cursor'

interface StoredSent {
  remoteJid: string
  message: unknown
}

export class SentMessageStore {
  #cursor: number | undefined
  #queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly auth: AuthStore,
    private readonly slots = SENT_MESSAGE_SLOTS,
  ) {}

  /** Saves the message proto of a sent message (serialized per session). */
  save(message: WAMessage): Promise<void> {
    const task = this.#queue.then(() => this.#save(message))
    this.#queue = task.catch(() => {})
    return task
  }

  /** The message proto for a retry, or undefined. */
  async get(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined
    const stored = (await this.auth.getKeys(MESSAGES, [key.id]))[key.id] as StoredSent | undefined
    if (!stored?.message) return undefined
    return proto.Message.fromObject(fromStored(stored.message) as Record<string, unknown>)
  }

  async #save(message: WAMessage): Promise<void> {
    const id = message.key.id
    if (!id || !message.message) return
    if (this.#cursor === undefined) {
      const stored = (await this.auth.getKeys(CURSOR, ['cursor']))['cursor']
      this.#cursor = typeof stored === 'number' ? stored : 0
    }
    const slot = String(this.#cursor % this.slots)
    const previous = (await this.auth.getKeys(SLOTS, [slot]))[slot]
    const entry: StoredSent = { remoteJid: message.key.remoteJid ?? '', message: toJsonSafe(message.message) }
    const messages: Record<string, unknown | null> = { [id]: entry }
    if (typeof previous === 'string' && previous !== id) messages[previous] = null
    await this.auth.setKeys({
      [MESSAGES]: messages,
      [SLOTS]: { [slot]: id },
      [CURSOR]: { cursor: this.#cursor + 1 },
    })
    this.#cursor += 1
  }
}
