/**
 * The persistent LID <-> phone-number table of one session. Fed from every source Baileys offers
 * (history sync, contacts, message keys' `Alt` fields, group participants, `lid-mapping.update`),
 * persisted through the AuthStore under our own key types, and used so events show the PN JID
 * whenever one is known.
 * @module
 */
import { isLidUser, isPnUser, jidNormalizedUser } from '@whiskeysockets/baileys'
import type { AuthStore } from '../driver.js'
import type { Jid } from '../types.js'

const LID_TO_PN = 'sb-lid'
const PN_TO_LID = 'sb-pn'

export interface IdentityPair {
  lid: Jid
  pn: Jid
}

/** A LID and/or PN as met in a payload, device parts stripped. */
export interface Resolved {
  /** The JID to show: the PN when known, else what was given. */
  jid: Jid
  lid?: Jid
}

/** Looks a LID up somewhere else (Baileys' own store) when ours has no entry. */
export type FallbackLookup = (lid: Jid) => Promise<Jid | undefined>

const normalize = (jid: string | null | undefined): Jid | undefined => {
  if (!jid) return undefined
  const normalized = jidNormalizedUser(jid)
  return normalized || undefined
}

export class IdentityTable {
  readonly #lidToPn = new Map<Jid, Jid>()
  readonly #pnToLid = new Map<Jid, Jid>()
  fallback: FallbackLookup | undefined

  constructor(
    private readonly auth: AuthStore,
    private readonly onLearned: (pairs: IdentityPair[]) => void,
  ) {}

  /** Records pairs (any order of arguments is checked); persists and reports the new ones. */
  async learn(candidates: { lid?: string | null; pn?: string | null }[]): Promise<void> {
    const fresh: IdentityPair[] = []
    for (const candidate of candidates) {
      let lid = normalize(candidate.lid)
      let pn = normalize(candidate.pn)
      if (lid && pn && isPnUser(lid) && isLidUser(pn)) [lid, pn] = [pn, lid]
      if (!lid || !pn || !isLidUser(lid) || !isPnUser(pn)) continue
      if (this.#lidToPn.get(lid) === pn) continue
      this.#remember(lid, pn)
      if (!fresh.some((p) => p.lid === lid)) fresh.push({ lid, pn })
    }
    if (fresh.length === 0) return
    await this.auth.setKeys({
      [LID_TO_PN]: Object.fromEntries(fresh.map((p) => [p.lid, p.pn])),
      [PN_TO_LID]: Object.fromEntries(fresh.map((p) => [p.pn, p.lid])),
    })
    this.onLearned(fresh)
  }

  async pnForLid(lidJid: string): Promise<Jid | undefined> {
    const lid = normalize(lidJid)
    if (!lid) return undefined
    const known = this.#lidToPn.get(lid)
    if (known) return known
    const stored = (await this.auth.getKeys(LID_TO_PN, [lid]))[lid]
    if (typeof stored === 'string') {
      this.#remember(lid, stored)
      return stored
    }
    const found = normalize(await this.fallback?.(lid))
    if (found && isPnUser(found)) {
      await this.learn([{ lid, pn: found }])
      return found
    }
    return undefined
  }

  async lidForPn(pnJid: string): Promise<Jid | undefined> {
    const pn = normalize(pnJid)
    if (!pn) return undefined
    const known = this.#pnToLid.get(pn)
    if (known) return known
    const stored = (await this.auth.getKeys(PN_TO_LID, [pn]))[pn]
    if (typeof stored !== 'string') return undefined
    this.#remember(stored, pn)
    return stored
  }

  /**
   * The form to show for a user JID: the PN when known (with the LID alongside), the given JID
   * otherwise. `alt` is the other form carried by the same payload, if any.
   */
  async resolve(jid: string | null | undefined, alt?: string | null): Promise<Resolved | undefined> {
    const main = normalize(jid)
    if (!main) return undefined
    const other = normalize(alt)
    if (other) await this.learn([{ lid: main, pn: other }])
    if (isLidUser(main)) {
      const pn = (other && isPnUser(other) ? other : undefined) ?? (await this.pnForLid(main))
      return pn ? { jid: pn, lid: main } : { jid: main, lid: main }
    }
    if (isPnUser(main)) {
      const lid = (other && isLidUser(other) ? other : undefined) ?? (await this.lidForPn(main))
      return lid ? { jid: main, lid } : { jid: main }
    }
    return { jid: main }
  }

  #remember(lid: Jid, pn: Jid): void {
    this.#lidToPn.set(lid, pn)
    this.#pnToLid.set(pn, lid)
  }
}
