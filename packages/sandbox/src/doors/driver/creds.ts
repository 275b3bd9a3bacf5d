/**
 * What a linked sandbox session keeps in its auth store: which account and device it is. A
 * restart with these creds and a link that still exists comes back without a scan.
 * @module
 */
import type { LinkRecord } from '../../world/records.js'

export interface SandboxCreds {
  sandbox: { version: 1; phone: string; deviceId: number; linkedAtMs: number }
}

export function credsOf(link: LinkRecord): SandboxCreds {
  return { sandbox: { version: 1, phone: link.phone, deviceId: link.deviceId, linkedAtMs: link.linkedAtMs } }
}

/** `undefined` when there are none, `'foreign'` for creds of another network or version. */
export function readSandboxCreds(value: unknown): SandboxCreds['sandbox'] | 'foreign' | undefined {
  if (value === undefined || value === null) return undefined
  const inner = (value as Partial<SandboxCreds>).sandbox
  if (
    inner !== null &&
    typeof inner === 'object' &&
    inner.version === 1 &&
    typeof inner.phone === 'string' &&
    typeof inner.deviceId === 'number'
  ) {
    return inner
  }
  return 'foreign'
}

/** Whether stored creds still name the session's link (the account may have removed it meanwhile). */
export function credsMatch(creds: SandboxCreds['sandbox'], link: LinkRecord | undefined): link is LinkRecord {
  return link !== undefined && link.phone === creds.phone && link.deviceId === creds.deviceId
}
