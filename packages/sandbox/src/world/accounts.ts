/**
 * Accounts (simulated phones) and what an account says about itself: name, about text, picture.
 * @module
 */
import { GatewayError, isLidJid, parsePhone, phoneOfJid, userJid } from '@switchboard/core'
import type { Jid, MediaPayload, ProfileInfo } from '@switchboard/core'
import type { WorldCore } from './core.js'
import { lidOf, qrRef } from './ids.js'
import type { AccountRecord } from './records.js'

/** WhatsApp's limit on display names. */
export const MAX_NAME_LENGTH = 25

export interface NewAccount {
  /** Any accepted phone form (`+1 555…`, digits). */
  phoneNumber: string
  name?: string
  about?: string
}

export interface AccountChanges {
  name?: string
  about?: string | null
  picture?: MediaPayload | null
  /** Hide picture and about from everyone. */
  hidden?: boolean
}

export class Accounts {
  constructor(private readonly core: WorldCore) {}

  /** Registers a number; `Invalid phone number format` or `Account already exists` otherwise. */
  create(input: NewAccount): AccountRecord {
    const phone = parsePhone(input.phoneNumber)
    if (phone === undefined) throw new GatewayError('INVALID_PHONE_NUMBER')
    if (this.core.state.accounts.has(phone)) throw new GatewayError('SANDBOX_ACCOUNT_EXISTS')
    const now = this.core.now()
    const about = input.about ?? null
    const account: AccountRecord = {
      phone,
      jid: userJid(phone),
      lid: lidOf(phone),
      name: input.name ?? `Sandbox ${phone}`,
      about,
      aboutSetAtMs: about === null ? null : now,
      picture: null,
      blocked: [],
      nextDeviceId: 1,
      createdAtMs: now,
    }
    this.core.state.accounts.set(phone, account)
    this.core.touch('accounts', phone)
    return account
  }

  /** Oldest first. */
  list(): AccountRecord[] {
    return [...this.core.state.accounts.values()].sort((a, b) => a.createdAtMs - b.createdAtMs || a.phone.localeCompare(b.phone))
  }

  get(phone: string): AccountRecord {
    return this.core.requireAccount(phone)
  }

  /** The phone of a registered user JID (PN or LID form), or undefined. */
  resolve(jid: Jid): string | undefined {
    if (isLidJid(jid)) return this.core.accountByLid(jid.replace(/:\d+@/, '@'))?.phone
    const phone = phoneOfJid(jid)
    return phone !== undefined && this.core.state.accounts.has(phone) ? phone : undefined
  }

  /** Changes what an account shows (the phone's settings screen). */
  update(phone: string, changes: AccountChanges): AccountRecord {
    const account = this.core.requireAccount(phone)
    if (changes.name !== undefined) this.setName(phone, changes.name)
    if (changes.about !== undefined) {
      account.about = changes.about
      account.aboutSetAtMs = changes.about === null ? null : this.core.now()
    }
    if (changes.picture === null) account.picture = null
    else if (changes.picture !== undefined) this.setPicture(phone, changes.picture)
    if (changes.hidden !== undefined) account.hidden = changes.hidden
    this.core.touch('accounts', phone)
    return account
  }

  profile(phone: string): ProfileInfo {
    const account = this.core.requireAccount(phone)
    return {
      id: account.jid,
      name: account.name,
      phone: account.phone,
      profilePicture: account.picture?.url ?? null,
      status: account.about,
    }
  }

  /** `Name must be 25 characters or less` beyond WhatsApp's limit. */
  setName(phone: string, name: string): void {
    if ([...name].length > MAX_NAME_LENGTH) throw new GatewayError('NAME_TOO_LONG')
    this.core.requireAccount(phone).name = name
    this.core.touch('accounts', phone)
  }

  setAbout(phone: string, about: string): void {
    const account = this.core.requireAccount(phone)
    account.about = about
    account.aboutSetAtMs = this.core.now()
    this.core.touch('accounts', phone)
  }

  /** JPEG or PNG only (`Invalid image format`), as WhatsApp accepts. */
  setPicture(phone: string, image: MediaPayload): void {
    const account = this.core.requireAccount(phone)
    const kind = imageKind(image.data)
    if (kind === undefined) throw new GatewayError('INVALID_IMAGE')
    account.picture = {
      url: `https://pps.sandbox.invalid/${phone}/${qrRef(this.core.newId)}.${kind === 'image/png' ? 'png' : 'jpg'}`,
      mimetype: kind,
      data: Buffer.from(image.data),
      setAtMs: this.core.now(),
    }
    this.core.touch('accounts', phone)
  }

  removePicture(phone: string): void {
    this.core.requireAccount(phone).picture = null
    this.core.touch('accounts', phone)
  }
}

/** The image type by its magic bytes. */
export function imageKind(data: Uint8Array): 'image/jpeg' | 'image/png' | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg'
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (data.length >= 8 && png.every((byte, i) => data[i] === byte)) return 'image/png'
  return undefined
}
