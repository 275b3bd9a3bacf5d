/**
 * Linked devices: the QR payloads and pairing codes a device offers, the account that scans or
 * enters one, the links that result, and which devices are online. Offers live only in memory
 * (they expire within a minute); links are persisted.
 * @module
 */
import { GatewayError } from '@switchboard/core'
import type { WorldCore } from './core.js'
import type { Notice } from './notices.js'
import type { LinkRecord } from './records.js'

interface QrOffer {
  payload: string
  expiresAtMs: number
}

interface CodeOffer {
  code: string
  phone: string
  expiresAtMs: number
}

/** Pairing codes are shown as `ABCD-EFGH`; either form (and lower case) is accepted. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase()
}

export class Links {
  readonly #qr = new Map<string, QrOffer>()
  readonly #codes = new Map<string, CodeOffer>()

  constructor(private readonly core: WorldCore) {}

  /** The device shows a QR payload; it replaces the previous one. */
  offerQr(sessionId: string, payload: string, ttlMs: number): void {
    this.#qr.set(sessionId, { payload, expiresAtMs: this.core.now() + ttlMs })
  }

  /** The device asked for a pairing code for `phone`; it replaces the previous one. */
  offerCode(sessionId: string, phone: string, code: string, ttlMs: number): void {
    this.#codes.set(sessionId, { code: normalizeCode(code), phone, expiresAtMs: this.core.now() + ttlMs })
  }

  /** The device stopped offering (linked, closed or gone). */
  withdraw(sessionId: string): void {
    this.#qr.delete(sessionId)
    this.#codes.delete(sessionId)
  }

  /** The account scans a QR payload: `Invalid or expired QR code` unless a device shows it now. */
  scan(phone: string, payload: string): LinkRecord {
    this.core.requireAccount(phone)
    const now = this.core.now()
    const wanted = payload.trim()
    const entry = [...this.#qr].find(([, offer]) => offer.payload === wanted && now < offer.expiresAtMs)
    if (!entry) throw new GatewayError('SANDBOX_QR_INVALID')
    return this.#link(entry[0], phone, 'qr')
  }

  /**
   * The account enters a pairing code: `Invalid or expired pairing code` unless a device asked
   * for it for this very account within its validity. Codes are single use.
   */
  enterCode(phone: string, code: string): LinkRecord {
    this.core.requireAccount(phone)
    const now = this.core.now()
    const wanted = normalizeCode(code)
    const entry = [...this.#codes].find(([, offer]) => offer.code === wanted && offer.phone === phone && now < offer.expiresAtMs)
    if (!entry) throw new GatewayError('SANDBOX_CODE_INVALID')
    return this.#link(entry[0], phone, 'code')
  }

  get(sessionId: string): LinkRecord | undefined {
    return this.core.state.links.get(sessionId)
  }

  /** Every link, or an account's. */
  list(phone?: string): LinkRecord[] {
    const links = [...this.core.state.links.values()]
    return (phone === undefined ? links : links.filter((link) => link.phone === phone)).sort((a, b) => a.linkedAtMs - b.linkedAtMs)
  }

  /** The account removes a linked device from its phone; `Session not found` if it is not linked to it. */
  unlink(phone: string, sessionId: string): LinkRecord {
    this.core.requireAccount(phone)
    const link = this.core.state.links.get(sessionId)
    if (!link || link.phone !== phone) throw new GatewayError('SESSION_NOT_FOUND')
    this.#remove(link)
    this.core.announceUnlinked(link, 'account')
    return link
  }

  /** The device logs itself out (or lost its keys); no error when it was not linked. */
  logout(sessionId: string): LinkRecord | undefined {
    const link = this.core.state.links.get(sessionId)
    if (!link) return undefined
    this.#remove(link)
    this.core.announceUnlinked(link, 'device')
    return link
  }

  /** The device is online: notices reach it at once; returns what waited for it, oldest first. */
  connect(sessionId: string): Notice[] {
    this.core.online.add(sessionId)
    const queued = this.core.state.queues.get(sessionId) ?? []
    if (queued.length > 0) {
      this.core.state.queues.delete(sessionId)
      this.core.touch('queues', sessionId)
    }
    return queued
  }

  /** The device is offline: notices wait in its queue. */
  disconnect(sessionId: string): void {
    this.core.online.delete(sessionId)
  }

  isOnline(sessionId: string): boolean {
    return this.core.online.has(sessionId)
  }

  #link(sessionId: string, phone: string, method: LinkRecord['method']): LinkRecord {
    this.withdraw(sessionId)
    const account = this.core.requireAccount(phone)
    const previous = this.core.state.links.get(sessionId)
    if (previous) this.#remove(previous)
    const link: LinkRecord = { sessionId, phone, deviceId: account.nextDeviceId++, method, linkedAtMs: this.core.now() }
    this.core.state.links.set(sessionId, link)
    this.core.touch('links', sessionId)
    this.core.touch('accounts', phone)
    this.core.announceLinked(link)
    return link
  }

  #remove(link: LinkRecord): void {
    this.core.state.links.delete(link.sessionId)
    this.core.touch('links', link.sessionId)
    if (this.core.state.queues.delete(link.sessionId)) this.core.touch('queues', link.sessionId)
    this.core.online.delete(link.sessionId)
  }
}
