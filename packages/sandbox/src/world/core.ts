/**
 * The world's shared core: its state, the journal of what changed (the caller persists it), and
 * the routing of notices to linked devices. Pure state and rules: no I/O, no timers; time comes
 * from the injected clock, ids from the injected generator.
 * @module
 */
import { GatewayError, userJid } from '@switchboard/core'
import type { Clock, Jid, NewId } from '@switchboard/core'
import type { Notice } from './notices.js'
import type { AccountRecord, ChatRecord, GroupRecord, LinkRecord, MessageRecord } from './records.js'

/** Everything the world persists, by collection. */
export interface WorldState {
  accounts: Map<string, AccountRecord>
  links: Map<string, LinkRecord>
  messages: Map<string, MessageRecord>
  groups: Map<string, GroupRecord>
  /** `<phone>:<chat JID>`. */
  chats: Map<string, ChatRecord>
  /** Notices waiting for an offline device, by session id. */
  queues: Map<string, Notice[]>
}

export type CollectionName = keyof WorldState

export const COLLECTIONS: readonly CollectionName[] = ['accounts', 'links', 'messages', 'groups', 'chats', 'queues']

export function emptyState(): WorldState {
  return { accounts: new Map(), links: new Map(), messages: new Map(), groups: new Map(), chats: new Map(), queues: new Map() }
}

/** Records to write and ids to delete, by collection (values are copies). */
export type Changes = Partial<Record<CollectionName, { set: [string, unknown][]; delete: string[] }>>

/** How doors hear from the world. Every member is optional. */
export interface WorldListener {
  /** Something for an online device. */
  notice?(sessionId: string, notice: Notice): void
  /** A device was linked by a scan or a pairing code. */
  linked?(link: LinkRecord): void
  /** A device was unlinked: by its account (from the phone) or by the device itself (logout). */
  unlinked?(link: LinkRecord, by: 'account' | 'device'): void
}

/** Something for the doors, in the order it happened. */
export type Outgoing =
  | { kind: 'notice'; sessionId: string; notice: Notice }
  | { kind: 'linked'; link: LinkRecord }
  | { kind: 'unlinked'; link: LinkRecord; by: 'account' | 'device' }

export class WorldCore {
  readonly online = new Set<string>()
  readonly #dirty = new Map<CollectionName, Set<string>>()
  readonly #listeners = new Set<WorldListener>()
  #outbox: Outgoing[] = []

  constructor(
    readonly state: WorldState,
    readonly clock: Clock,
    readonly newId: NewId,
  ) {}

  now(): number {
    return this.clock.now()
  }

  nowSec(): number {
    return Math.floor(this.clock.now() / 1000)
  }

  subscribe(listener: WorldListener): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  /** Marks a record as changed (or deleted, when it is no longer in the state). */
  touch(collection: CollectionName, id: string): void {
    let ids = this.#dirty.get(collection)
    if (!ids) this.#dirty.set(collection, (ids = new Set()))
    ids.add(id)
  }

  /** What changed since the last call, as copies ready to write. */
  takeChanges(): Changes {
    const changes: Changes = {}
    for (const [collection, ids] of this.#dirty) {
      const map = this.state[collection] as Map<string, unknown>
      const entry = { set: [] as [string, unknown][], delete: [] as string[] }
      for (const id of ids) {
        const value = map.get(id)
        if (value === undefined) entry.delete.push(id)
        else entry.set.push([id, copy(value)])
      }
      changes[collection] = entry
    }
    this.#dirty.clear()
    return changes
  }

  /** What waits for the listeners since the last call. */
  takeOutbox(): Outgoing[] {
    const outbox = this.#outbox
    this.#outbox = []
    return outbox
  }

  /** Hands taken items to the listeners (after the changes that caused them are persisted). */
  deliver(outbox: readonly Outgoing[]): void {
    for (const item of outbox) {
      for (const listener of [...this.#listeners]) {
        if (item.kind === 'notice') listener.notice?.(item.sessionId, item.notice)
        else if (item.kind === 'linked') listener.linked?.(item.link)
        else listener.unlinked?.(item.link, item.by)
      }
    }
  }

  announceLinked(link: LinkRecord): void {
    this.#outbox.push({ kind: 'linked', link })
  }

  announceUnlinked(link: LinkRecord, by: 'account' | 'device'): void {
    this.#outbox.push({ kind: 'unlinked', link, by })
  }

  /** Routes a notice to one device: at once when online, into its queue otherwise. */
  toDevice(sessionId: string, n: Notice): void {
    if (this.online.has(sessionId)) {
      this.#outbox.push({ kind: 'notice', sessionId, notice: n })
      return
    }
    this.enqueue(sessionId, n)
  }

  enqueue(sessionId: string, n: Notice): void {
    const queue = this.state.queues.get(sessionId) ?? []
    queue.push(n)
    this.state.queues.set(sessionId, queue)
    this.touch('queues', sessionId)
  }

  /** Routes a notice to every linked device of an account, except the one that caused it. */
  toAccount(phone: string, n: Notice | ((link: LinkRecord) => Notice), except?: string): void {
    for (const link of this.linksOf(phone)) {
      if (link.sessionId !== except) this.toDevice(link.sessionId, typeof n === 'function' ? n(link) : n)
    }
  }

  linksOf(phone: string): LinkRecord[] {
    return [...this.state.links.values()].filter((link) => link.phone === phone)
  }

  account(phone: string): AccountRecord | undefined {
    return this.state.accounts.get(phone)
  }

  /** The account or `SANDBOX_ACCOUNT_NOT_FOUND`. */
  requireAccount(phone: string): AccountRecord {
    const account = this.state.accounts.get(phone)
    if (!account) throw new GatewayError('SANDBOX_ACCOUNT_NOT_FOUND')
    return account
  }

  accountByLid(lid: Jid): AccountRecord | undefined {
    return [...this.state.accounts.values()].find((account) => account.lid === lid)
  }

  jidOf(phone: string): Jid {
    return userJid(phone)
  }
}

/** A deep copy that keeps Buffers (structuredClone would turn them into plain Uint8Arrays). */
export function copy<T>(value: T): T {
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T
  if (value instanceof Uint8Array) return Buffer.from(value) as T
  if (Array.isArray(value)) return value.map((item: unknown) => copy(item)) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = copy(item)
    return out as T
  }
  return value
}
