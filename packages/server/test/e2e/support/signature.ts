import { createHmac } from 'node:crypto'
import type { ReceivedRequest } from './webhook-receiver.js'

/**
 * Checks a delivery the way a receiver would with the Standard Webhooks convention, written here
 * independently of the server's code: key = base64 of the part after `whsec_`, content
 * `${id}.${timestamp}.${body}`, header `v1,<base64 HMAC-SHA256>` (possibly several, space-separated).
 */
export function hasValidSignature(request: ReceivedRequest, secret: string): boolean {
  const id = request.headers['webhook-id']
  const timestamp = request.headers['webhook-timestamp']
  const header = request.headers['webhook-signature']
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof header !== 'string') return false
  if (!secret.startsWith('whsec_')) return false
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.raw}`).digest('base64')
  return header.split(' ').some((part) => part === `v1,${expected}`)
}
