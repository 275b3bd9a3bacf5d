/**
 * JID spelling used on the wire.
 * @module
 */
import { jidDecode } from '@whiskeysockets/baileys'

export const pnJid = (phone: string, device?: number): string =>
  device ? `${phone}:${device}@s.whatsapp.net` : `${phone}@s.whatsapp.net`

export const lidJid = (lid: string, device?: number): string => (device ? `${lid}:${device}@lid` : `${lid}@lid`)

export interface DecodedJid {
  user: string
  server: string
  device: number
}

export function decodeJid(jid: string | undefined): DecodedJid | undefined {
  if (!jid) return undefined
  const decoded = jidDecode(jid)
  if (!decoded?.user) return undefined
  return { user: decoded.user, server: decoded.server, device: decoded.device ?? 0 }
}

export const isGroup = (jid: string | undefined): boolean => !!jid?.endsWith('@g.us')
export const isLid = (jid: string | undefined): boolean => !!jid?.endsWith('@lid')
export const isPn = (jid: string | undefined): boolean => !!jid?.endsWith('@s.whatsapp.net')
