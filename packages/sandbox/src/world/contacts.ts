/**
 * Contacts as an account sees them: blocking, another account's picture and about text, and
 * whether numbers are registered.
 * @module
 */
import { GatewayError, isGroupJid, normalizeUserJid, userJid } from '@switchboard/core'
import type { AboutInfo, Jid, NumberCheck } from '@switchboard/core'
import type { Accounts } from './accounts.js'
import type { WorldCore } from './core.js'
import type { AccountRecord } from './records.js'

export class Contacts {
  constructor(
    private readonly core: WorldCore,
    private readonly accounts: Accounts,
  ) {}

  block(phone: string, jid: Jid): void {
    const me = this.core.requireAccount(phone)
    const target = this.#target(jid)
    if (!me.blocked.includes(target.jid)) me.blocked.push(target.jid)
    this.core.touch('accounts', phone)
  }

  unblock(phone: string, jid: Jid): void {
    const me = this.core.requireAccount(phone)
    const target = this.#target(jid)
    me.blocked = me.blocked.filter((blocked) => blocked !== target.jid)
    this.core.touch('accounts', phone)
  }

  /** True when `phone` has blocked `other`. */
  hasBlocked(phone: string, other: string): boolean {
    return this.core.account(phone)?.blocked.includes(userJid(other)) ?? false
  }

  /** The picture URL, or null when there is none or it is hidden from `phone`. */
  picture(phone: string, jid: Jid): string | null {
    this.core.requireAccount(phone)
    if (isGroupJid(jid)) {
      const group = this.core.state.groups.get(jid)
      if (!group || !group.participants.some((member) => member.phone === phone)) throw new GatewayError('GROUP_NOT_FOUND')
      return null
    }
    const target = this.#target(jid)
    return this.#hiddenFrom(target, phone) ? null : (target.picture?.url ?? null)
  }

  /** Both null when there is no about text or it is hidden from `phone`. */
  about(phone: string, jid: Jid): AboutInfo {
    this.core.requireAccount(phone)
    const target = this.#target(jid)
    if (this.#hiddenFrom(target, phone) || target.about === null) return { about: null, setAt: null }
    return { about: target.about, setAt: target.aboutSetAtMs === null ? null : Math.floor(target.aboutSetAtMs / 1000) }
  }

  /** One answer per number, in order; digits as asked. */
  check(phones: readonly string[]): NumberCheck[] {
    return phones.map((asked) => {
      const digits = asked.replace(/\D/g, '')
      const account = this.core.account(digits)
      return { phone: asked, exists: account !== undefined, jid: userJid(digits), ...(account ? { lid: account.lid } : {}) }
    })
  }

  /** A registered user, or `Contact not found`. */
  #target(jid: Jid): AccountRecord {
    const phone = this.accounts.resolve(normalizeUserJid(jid))
    const account = phone === undefined ? undefined : this.core.account(phone)
    if (!account) throw new GatewayError('CONTACT_NOT_FOUND')
    return account
  }

  #hiddenFrom(target: AccountRecord, viewer: string): boolean {
    return target.phone !== viewer && (target.hidden === true || target.blocked.includes(userJid(viewer)))
  }
}
