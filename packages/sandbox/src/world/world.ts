/**
 * The simulated network: accounts, linked devices, messages, groups, chats, contacts and calls,
 * over one state. Doors (the in-process driver, later the protocol server) translate between
 * their wire and these rooms; the world knows nothing about doors. Rules are synchronous;
 * {@link World.take} hands the caller what to persist, {@link World.deliver} then hands the
 * doors the notices it caused.
 * @module
 */
import type { Clock, NewId } from '@switchboard/core'
import { Accounts } from './accounts.js'
import { Calls } from './calls.js'
import { Chats } from './chats.js'
import { Contacts } from './contacts.js'
import { type Changes, type Outgoing, WorldCore, type WorldListener, type WorldState } from './core.js'
import { Groups } from './groups.js'
import { Links } from './links.js'
import { MessageActions } from './message-actions.js'
import { Messages } from './messages.js'

export interface WorldDeps {
  clock: Clock
  newId: NewId
}

export class World {
  readonly accounts: Accounts
  readonly contacts: Contacts
  readonly links: Links
  readonly messages: Messages
  readonly actions: MessageActions
  readonly groups: Groups
  readonly chats: Chats
  readonly calls: Calls
  readonly #core: WorldCore

  constructor(state: WorldState, deps: WorldDeps) {
    const core = new WorldCore(state, deps.clock, deps.newId)
    this.#core = core
    this.accounts = new Accounts(core)
    this.contacts = new Contacts(core, this.accounts)
    this.links = new Links(core)
    this.messages = new Messages(core, this.accounts, this.contacts)
    this.actions = new MessageActions(core, this.messages)
    this.groups = new Groups(core, this.accounts)
    this.chats = new Chats(core, this.accounts, this.messages)
    this.calls = new Calls(core, this.accounts)
  }

  /** Hears notices for online devices and link changes, after each flush. */
  subscribe(listener: WorldListener): () => void {
    return this.#core.subscribe(listener)
  }

  /**
   * What the operations since the last call changed (copies, ready to write) and what they
   * caused for the doors; hand the latter to {@link deliver} once the changes are persisted.
   */
  take(): { changes: Changes; outbox: Outgoing[] } {
    return { changes: this.#core.takeChanges(), outbox: this.#core.takeOutbox() }
  }

  /** Tells the listeners what {@link take} returned. */
  deliver(outbox: readonly Outgoing[]): void {
    this.#core.deliver(outbox)
  }

  /** Puts a notice back in a device's queue (it went offline before the notice reached it). */
  requeue(sessionId: string, notice: Parameters<WorldCore['enqueue']>[1]): void {
    this.#core.enqueue(sessionId, notice)
  }

  now(): number {
    return this.#core.now()
  }
}
