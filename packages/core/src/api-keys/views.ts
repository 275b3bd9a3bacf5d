/**
 * The response bodies of the admin key endpoints, as pure functions of a {@link ManagedApiKey}
 * (interface spec: Managed API key, Admin endpoints; decisions.md: bodies the spec leaves out).
 * No view ever carries a key hash; only the two creation views carry the raw key.
 * @module
 */
import { isoAt } from '../kernel/clock.js'
import type { ManagedApiKey, RateLimits } from './records.js'
import { trialRestrictions } from './trial.js'

/** The `warning` of a creation response. */
export const RAW_KEY_WARNING = 'Store this API key securely: it is shown only once and cannot be recovered.'

/** The `message` of the action responses. */
export const API_KEY_MESSAGES = {
  updated: 'API key updated',
  rateLimitsUpdated: 'Rate limits updated',
  activated: 'API key activated',
  deactivated: 'API key deactivated',
  deleted: 'API key deleted',
  trialExtended: 'Trial extended',
  convertedToPaid: 'Trial key converted to a paid key',
} as const

/** Every field of the spec's Managed API key except the raw `key`. */
export interface ApiKeyDetails {
  id: string
  name: string
  type: string
  isAdmin: boolean
  isActive: boolean
  isTrial: boolean
  /** ISO timestamp; null for non-trial keys. */
  trialExpiresAt: string | null
  /** null for non-trial keys (no restriction). */
  allowedNumbers: string[] | null
  rateLimits: RateLimits
  /** null: unlimited. */
  maxSessions: number | null
  metadata: Record<string, unknown>
  usage: { messagesSent: number; sessionsCreated: number }
  createdAt: string
  /** null until the key is first used. */
  lastUsedAt: string | null
}

export interface CreatedApiKeyView {
  success: true
  apiKey: {
    id: string
    key: string
    name: string
    type: string
    isAdmin: boolean
    rateLimits: RateLimits
    maxSessions: number | null
    createdAt: string
  }
  warning: string
}

export interface CreatedTrialKeyView {
  success: true
  apiKey: {
    id: string
    key: string
    name: string
    type: 'trial'
    isTrial: true
    trialExpiresAt: string
    allowedNumbers: string[]
    rateLimits: RateLimits
    maxSessions: number | null
    createdAt: string
  }
  trialInfo: { expiresAt: string; allowedNumbers: string[]; restrictions: string[] }
  warning: string
}

/** `POST /admin/api-keys` (201). */
export function createdApiKeyView(key: ManagedApiKey, rawKey: string): CreatedApiKeyView {
  return {
    success: true,
    apiKey: {
      id: key.id,
      key: rawKey,
      name: key.name,
      type: key.type,
      isAdmin: key.isAdmin,
      rateLimits: { ...key.rateLimits },
      maxSessions: key.maxSessions,
      createdAt: isoAt(key.createdAtMs),
    },
    warning: RAW_KEY_WARNING,
  }
}

/** `POST /admin/api-keys/trial` (201). Throws for a key that is not a trial key. */
export function createdTrialKeyView(key: ManagedApiKey, rawKey: string): CreatedTrialKeyView {
  if (!key.isTrial || key.trialExpiresAtMs === null || key.allowedNumbers === null) {
    throw new TypeError(`createdTrialKeyView: key ${key.id} is not a trial key`)
  }
  const expiresAt = isoAt(key.trialExpiresAtMs)
  return {
    success: true,
    apiKey: {
      id: key.id,
      key: rawKey,
      name: key.name,
      type: 'trial',
      isTrial: true,
      trialExpiresAt: expiresAt,
      allowedNumbers: [...key.allowedNumbers],
      rateLimits: { ...key.rateLimits },
      maxSessions: key.maxSessions,
      createdAt: isoAt(key.createdAtMs),
    },
    trialInfo: {
      expiresAt,
      allowedNumbers: [...key.allowedNumbers],
      restrictions: trialRestrictions({ ...key, allowedNumbers: key.allowedNumbers, trialExpiresAtMs: key.trialExpiresAtMs }),
    },
    warning: RAW_KEY_WARNING,
  }
}

/** The details of a key: the `apiKey` of get, list entries and action responses. */
export function apiKeyDetails(key: ManagedApiKey): ApiKeyDetails {
  return {
    id: key.id,
    name: key.name,
    type: key.type,
    isAdmin: key.isAdmin,
    isActive: key.isActive,
    isTrial: key.isTrial,
    trialExpiresAt: key.trialExpiresAtMs === null ? null : isoAt(key.trialExpiresAtMs),
    allowedNumbers: key.allowedNumbers === null ? null : [...key.allowedNumbers],
    rateLimits: { ...key.rateLimits },
    maxSessions: key.maxSessions,
    metadata: structuredClone(key.metadata),
    usage: { messagesSent: key.usage.messagesSent, sessionsCreated: key.usage.sessionsCreated },
    createdAt: isoAt(key.createdAtMs),
    lastUsedAt: key.lastUsedAtMs === null ? null : isoAt(key.lastUsedAtMs),
  }
}

/** `GET /admin/api-keys/{id}`. */
export function apiKeyView(key: ManagedApiKey): { success: true; apiKey: ApiKeyDetails } {
  return { success: true, apiKey: apiKeyDetails(key) }
}

/** `GET /admin/api-keys`. */
export function apiKeyListView(keys: readonly ManagedApiKey[]): { success: true; apiKeys: ApiKeyDetails[]; count: number } {
  return { success: true, apiKeys: keys.map(apiKeyDetails), count: keys.length }
}

/** update, rate-limits, activate, deactivate, extend-trial, convert-to-paid. */
export function apiKeyActionView(message: string, key: ManagedApiKey): { success: true; message: string; apiKey: ApiKeyDetails } {
  return { success: true, message, apiKey: apiKeyDetails(key) }
}

/** `DELETE /admin/api-keys/{id}`. */
export function apiKeyDeletedView(): { success: true; message: string } {
  return { success: true, message: API_KEY_MESSAGES.deleted }
}

export interface AdminUsageView {
  success: true
  stats: {
    totalKeys: number
    activeKeys: number
    trialKeys: number
    adminKeys: number
    totalSessions: number
    totalMessagesSent: number
    /** standard, trial and premium always present; other types as they occur. */
    keysByType: Record<string, number> & { standard: number; trial: number; premium: number }
  }
  keys: {
    id: string
    name: string
    type: string
    isActive: boolean
    sessionStats: { sessions: number; messagesSent: number }
    lastUsedAt: string | null
  }[]
}

/**
 * `GET /admin/usage` over the managed keys. Session counts come from the sessions room:
 * `sessionsByKey` maps an account key id to its existing sessions, `totalSessions` counts them all
 * (the master key's included).
 */
export function adminUsageView(
  keys: readonly ManagedApiKey[],
  sessions: { sessionsByKey: ReadonlyMap<string, number>; totalSessions: number },
): AdminUsageView {
  const byType = new Map<string, number>([
    ['standard', 0],
    ['trial', 0],
    ['premium', 0],
  ])
  for (const key of keys) byType.set(key.type, (byType.get(key.type) ?? 0) + 1)
  // fromEntries defines own properties, so no type name can reach the prototype.
  const keysByType = Object.fromEntries(byType) as AdminUsageView['stats']['keysByType']
  return {
    success: true,
    stats: {
      totalKeys: keys.length,
      activeKeys: keys.filter((key) => key.isActive).length,
      trialKeys: keys.filter((key) => key.isTrial).length,
      adminKeys: keys.filter((key) => key.isAdmin).length,
      totalSessions: sessions.totalSessions,
      totalMessagesSent: keys.reduce((sum, key) => sum + key.usage.messagesSent, 0),
      keysByType,
    },
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      type: key.type,
      isActive: key.isActive,
      sessionStats: { sessions: sessions.sessionsByKey.get(key.id) ?? 0, messagesSent: key.usage.messagesSent },
      lastUsedAt: key.lastUsedAtMs === null ? null : isoAt(key.lastUsedAtMs),
    })),
  }
}
