/**
 * Keeps the world in the service's store: one collection per kind of record, loaded whole at
 * start (a sandbox world is small) and written as the world reports changes. Writes are
 * serialized so that a later change never lands before an earlier one.
 * @module
 */
import type { Collection, Store } from '@switchboard/core'
import { COLLECTIONS, emptyState, type Changes, type CollectionName, type WorldState } from '../world/core.js'
import type { AccountRecord, MessageRecord } from '../world/records.js'

/** Store collection of each kind of record. */
export const COLLECTION_NAMES: Readonly<Record<CollectionName, string>> = {
  accounts: 'sandbox_accounts',
  links: 'sandbox_links',
  messages: 'sandbox_messages',
  groups: 'sandbox_groups',
  chats: 'sandbox_chats',
  queues: 'sandbox_queues',
}

export class WorldStore {
  readonly #collections: Record<CollectionName, Collection<unknown>>
  #last: Promise<void> = Promise.resolve()

  constructor(store: Store) {
    this.#collections = Object.fromEntries(
      COLLECTIONS.map((name) => [name, store.collection<unknown>(COLLECTION_NAMES[name])]),
    ) as Record<CollectionName, Collection<unknown>>
  }

  async load(): Promise<WorldState> {
    const state = emptyState()
    for (const name of COLLECTIONS) {
      const map = state[name] as Map<string, unknown>
      for await (const [id, value] of this.#collections[name].entries()) map.set(id, value)
    }
    for (const account of state.accounts.values()) restoreAccount(account)
    for (const message of state.messages.values()) restoreMessage(message)
    return state
  }

  /** Writes `changes` after every earlier write; rejects when the store fails. */
  write(changes: Changes): Promise<void> {
    const run = async (): Promise<void> => {
      for (const name of COLLECTIONS) {
        const change = changes[name]
        if (change && (change.set.length > 0 || change.delete.length > 0)) await this.#collections[name].batch(change)
      }
    }
    const next = this.#last.then(run)
    this.#last = next.catch(() => {})
    return next
  }

  /** Resolves once every write asked for so far is done. */
  idle(): Promise<void> {
    return this.#last
  }
}

/** Backends give bytes back as Buffer, Uint8Array or Buffer's JSON form; the world wants Buffers. */
function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value)
  if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer') {
    return Buffer.from((value as { data: number[] }).data)
  }
  if (typeof value === 'string') return Buffer.from(value, 'base64')
  return Buffer.alloc(0)
}

function restoreAccount(account: AccountRecord): void {
  if (account.picture) account.picture.data = toBuffer(account.picture.data)
}

function restoreMessage(message: MessageRecord): void {
  const content = message.content
  if ('media' in content) content.media.data = toBuffer(content.media.data)
}
