/**
 * JIDs: `<digits>@s.whatsapp.net` for people, `<id>@g.us` for groups, `<id>@lid` for linked
 * identities. Endpoints take a phone number, a `+`number or a JID; these helpers normalize them.
 * @module
 */
import { GatewayError } from '../errors/index.js'
import type { Jid } from '../network/types.js'
import { parsePhone } from './phone.js'

export const USER_SERVER = 's.whatsapp.net'
export const GROUP_SERVER = 'g.us'
export const LID_SERVER = 'lid'
export const INVITE_HOST = 'chat.whatsapp.com'

const USER_JID = /^(\d{5,20})(?::\d+)?@(s\.whatsapp\.net|c\.us)$/
const GROUP_JID = /^[\d-]{5,40}@g\.us$/
const LID_JID = /^\d{5,25}(?::\d+)?@lid$/

export const isGroupJid = (jid: string): boolean => GROUP_JID.test(jid)
export const isLidJid = (jid: string): boolean => LID_JID.test(jid)
export const isUserJid = (jid: string): boolean => USER_JID.test(jid)

export function userJid(digits: string): Jid {
  return `${digits}@${USER_SERVER}`
}

/** Digits of a user JID (device suffix dropped), or undefined for groups and LIDs. */
export function phoneOfJid(jid: string): string | undefined {
  return USER_JID.exec(jid)?.[1]
}

/** A user JID without device part, `c.us` mapped to `s.whatsapp.net`. */
export function normalizeUserJid(jid: string): Jid {
  const digits = phoneOfJid(jid)
  return digits === undefined ? jid : userJid(digits)
}

/**
 * A send recipient: a phone number (`+`, spaces and dashes allowed), a user JID or a group JID.
 * Numbers failing validation give `Invalid phone number format`; malformed JIDs `Invalid JID format`.
 */
export function normalizeRecipient(input: string): Jid {
  const value = input.trim()
  if (value.includes('@')) {
    if (isGroupJid(value) || isLidJid(value)) return value
    if (isUserJid(value)) {
      const digits = phoneOfJid(value)!
      if (parsePhone(digits) === undefined) throw new GatewayError('INVALID_PHONE_NUMBER')
      return userJid(digits)
    }
    throw new GatewayError('INVALID_JID')
  }
  const digits = parsePhone(value)
  if (digits === undefined) throw new GatewayError('INVALID_PHONE_NUMBER')
  return userJid(digits)
}

/** A chat id of the chat endpoints: a phone number or any JID. */
export function normalizeChatId(input: string): Jid {
  return normalizeRecipient(input)
}

/** A group id: must be a group JID, else `Invalid JID format`. */
export function normalizeGroupId(input: string): Jid {
  const value = input.trim()
  if (!isGroupJid(value)) throw new GatewayError('INVALID_JID')
  return value
}

export function inviteLink(code: string): string {
  return `https://${INVITE_HOST}/${code}`
}
