/**
 * Own profile (name, about, picture) and contact look-ups (block, picture, about, number check).
 * Privacy answers are not errors here: a hidden picture or about is `null`.
 * @module
 */
import { GatewayError } from '../../errors/index.js'
import { userJid } from '../../addressing/jid.js'
import type { ContactOp, ContactOpResults, OpOf, ProfileOp, ProfileOpResults } from '../operations.js'
import type { AboutInfo, Me, NumberCheck, ProfileInfo } from '../types.js'
import { isBoom, statusCodeOf, toGatewayError, translated } from './errors.js'
import type { IdentityTable } from './identity.js'
import type { BaileysSocket } from './socket.js'

export const MAX_PROFILE_NAME = 25

/** Codes (and texts) WhatsApp answers for "no picture" or "hidden by privacy". */
const NO_PICTURE = /item-not-found|not-authorized|forbidden/i

/** A profile picture URL, or null when there is none or it is hidden. */
export async function pictureUrl(sock: BaileysSocket, jid: string): Promise<string | null> {
  try {
    return (await sock.profilePictureUrl(jid, 'image')) ?? null
  } catch (err) {
    const code = statusCodeOf(err)
    if (code === 401 || code === 403 || code === 404 || (isBoom(err) && NO_PICTURE.test(err.message))) return null
    throw toGatewayError(err, 'contact')
  }
}

/** About text via v7's `fetchStatus` (an array of `{ id, status: { status, setAt } }`). */
export async function aboutOf(sock: BaileysSocket, jid: string): Promise<AboutInfo> {
  const results = await translated('contact', () => sock.fetchStatus(jid))
  const entry = results?.[0]?.status as { status?: string | null; setAt?: Date | string | number } | undefined
  // '' is what a privacy-hidden about comes back as.
  if (!entry || !entry.status) return { about: null, setAt: null }
  const setAtMs = entry.setAt instanceof Date ? entry.setAt.getTime() : entry.setAt !== undefined ? new Date(entry.setAt).getTime() : NaN
  return { about: entry.status, setAt: Number.isFinite(setAtMs) && setAtMs > 0 ? Math.floor(setAtMs / 1000) : null }
}

export interface ProfileDeps {
  sock: BaileysSocket
  me: Me
}

export async function runProfileOp<K extends ProfileOp['op']>(deps: ProfileDeps, op: OpOf<ProfileOp, K>): Promise<ProfileOpResults[K]> {
  return (await profileOp(deps, op as ProfileOp)) as ProfileOpResults[K]
}

async function profileOp(deps: ProfileDeps, op: ProfileOp): Promise<unknown> {
  const { sock, me } = deps
  switch (op.op) {
    case 'get': {
      const [about, picture] = await Promise.all([aboutOf(sock, me.jid).catch(() => ({ about: null })), pictureUrl(sock, me.jid)])
      const info: ProfileInfo = { id: me.jid, name: me.name ?? '', phone: me.phoneNumber, profilePicture: picture, status: about.about }
      return info
    }
    case 'setName':
      if (op.name.length > MAX_PROFILE_NAME) throw new GatewayError('NAME_TOO_LONG')
      await translated('profile', () => sock.updateProfileName(op.name))
      break
    case 'setStatus':
      await translated('profile', () => sock.updateProfileStatus(op.status))
      break
    case 'setPicture':
      await translated('profile', () => sock.updateProfilePicture(me.jid, op.image.data))
      break
    case 'removePicture':
      await translated('profile', () => sock.removeProfilePicture(me.jid))
      break
  }
  return undefined
}

export interface ContactDeps {
  sock: BaileysSocket
  identity: IdentityTable
}

/** Blocking in v7 addresses the LID: make sure a mapping exists (a usync query when unknown). */
async function ensureLid(deps: ContactDeps, jid: string): Promise<void> {
  if (jid.endsWith('@lid')) return
  const known = await deps.identity.lidForPn(jid)
  const lidMapping = deps.sock.signalRepository?.lidMapping
  if (known) {
    await lidMapping?.storeLIDPNMappings([{ lid: known, pn: jid }])
    return
  }
  const lid = await translated('contact', async () => (await lidMapping?.getLIDForPN(jid)) ?? undefined)
  if (!lid) throw new GatewayError('CONTACT_NOT_FOUND')
  await deps.identity.learn([{ lid, pn: jid }])
}

/** Numbers registered on WhatsApp: `onWhatsApp` returns only those, absence means not registered. */
export async function checkNumbers(deps: ContactDeps, phones: string[]): Promise<NumberCheck[]> {
  const digits = phones.map((p) => p.replace(/\D/g, ''))
  const found = await translated('contact', () => deps.sock.onWhatsApp(...digits))
  const registered = new Set((found ?? []).filter((r) => r.exists).map((r) => r.jid.split('@')[0]!.split(':')[0]))
  return Promise.all(
    phones.map(async (phone, i) => {
      const jid = userJid(digits[i]!)
      const check: NumberCheck = { phone, exists: registered.has(digits[i]!), jid }
      const lid = check.exists ? await deps.identity.lidForPn(jid) : undefined
      if (lid) check.lid = lid
      return check
    }),
  )
}

export async function runContactOp<K extends ContactOp['op']>(deps: ContactDeps, op: OpOf<ContactOp, K>): Promise<ContactOpResults[K]> {
  return (await contactOp(deps, op as ContactOp)) as ContactOpResults[K]
}

async function contactOp(deps: ContactDeps, op: ContactOp): Promise<unknown> {
  const { sock } = deps
  switch (op.op) {
    case 'block':
    case 'unblock':
      await ensureLid(deps, op.jid)
      await translated('contact', () => sock.updateBlockStatus(op.jid, op.op))
      return undefined
    case 'picture':
      return pictureUrl(sock, op.jid)
    case 'about':
      return aboutOf(sock, op.jid)
    case 'check':
      return checkNumbers(deps, op.phones)
  }
}
