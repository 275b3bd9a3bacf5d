/**
 * The record changes behind each admin operation, as pure functions of validated input (the
 * service parses, looks up, persists). Each returns the fields to change, never the usage
 * counters, which keep counting while a change is written.
 * @module
 */
import type { z } from 'zod'
import { GatewayError } from '../errors/index.js'
import type {
  convertToPaidInput,
  createApiKeyInput,
  createTrialKeyInput,
  setRateLimitsInput,
  updateApiKeyInput,
} from '../schemas/api-keys.js'
import { defaultsForType, TRIAL_DEFAULTS } from './key-types.js'
import type { ApiKeyRecord, ManagedApiKey, RateLimits } from './records.js'
import { extendedTrialExpiryMs, trialExpiryMs } from './trial.js'

/** The parts of a new record the service provides. */
export interface NewKeyBasics {
  id: string
  keyHash: string
  nowMs: number
}

export type KeyChanges = Partial<Omit<ManagedApiKey, 'id' | 'usage' | 'createdAtMs' | 'lastUsedAtMs'>>

/** Trial defaults of the trial endpoint (spec: `rateLimitMessages` 10, `maxSessions` 1). */
export const TRIAL_CREATE_DEFAULTS = { rateLimitMessages: 10, maxSessions: 1 } as const

type OptionalLimits = { [K in keyof RateLimits]?: number | undefined }

function definedLimits(limits: OptionalLimits): Partial<RateLimits> {
  const out: Partial<RateLimits> = {}
  if (limits.general !== undefined) out.general = limits.general
  if (limits.messages !== undefined) out.messages = limits.messages
  if (limits.sessions !== undefined) out.sessions = limits.sessions
  return out
}

/** A new standard, premium or other paid key; unset limits are the type's defaults. */
export function buildManagedKey(basics: NewKeyBasics, input: z.output<typeof createApiKeyInput>): ApiKeyRecord {
  const type = input.type ?? 'standard'
  const defaults = defaultsForType(type)
  return {
    id: basics.id,
    keyHash: basics.keyHash,
    name: input.name,
    type,
    isAdmin: input.isAdmin ?? false,
    isActive: true,
    isTrial: false,
    trialExpiresAtMs: null,
    allowedNumbers: null,
    rateLimits: {
      ...defaults.rateLimits,
      ...definedLimits({ general: input.rateLimitGeneral, messages: input.rateLimitMessages, sessions: input.rateLimitSessions }),
    },
    maxSessions: input.maxSessions === undefined ? defaults.maxSessions : input.maxSessions,
    metadata: input.metadata ?? {},
    usage: { messagesSent: 0, sessionsCreated: 0 },
    createdAtMs: basics.nowMs,
    lastUsedAtMs: null,
  }
}

/** A new trial key; `allowedNumbers` already normalized. */
export function buildTrialKey(
  basics: NewKeyBasics,
  input: z.output<typeof createTrialKeyInput>,
  allowedNumbers: string[],
): ApiKeyRecord {
  return {
    id: basics.id,
    keyHash: basics.keyHash,
    name: input.name,
    type: 'trial',
    isAdmin: false,
    isActive: true,
    isTrial: true,
    trialExpiresAtMs: trialExpiryMs(basics.nowMs, input.trialDays),
    allowedNumbers,
    rateLimits: { ...TRIAL_DEFAULTS.rateLimits, messages: input.rateLimitMessages ?? TRIAL_CREATE_DEFAULTS.rateLimitMessages },
    maxSessions: input.maxSessions ?? TRIAL_CREATE_DEFAULTS.maxSessions,
    metadata: input.metadata ?? {},
    usage: { messagesSent: 0, sessionsCreated: 0 },
    createdAtMs: basics.nowMs,
    lastUsedAtMs: null,
  }
}

/** `PUT /admin/api-keys/{id}`. */
export function updateChanges(key: ManagedApiKey, input: z.output<typeof updateApiKeyInput>): KeyChanges {
  const changes: KeyChanges = {
    rateLimits: {
      ...key.rateLimits,
      ...definedLimits({ general: input.rateLimitGeneral, messages: input.rateLimitMessages, sessions: input.rateLimitSessions }),
    },
  }
  if (input.name !== undefined) changes.name = input.name
  if (input.maxSessions !== undefined) changes.maxSessions = input.maxSessions
  if (input.metadata !== undefined) changes.metadata = input.metadata
  return changes
}

/** `PUT /admin/api-keys/{id}/rate-limits`. */
export function rateLimitChanges(key: ManagedApiKey, input: z.output<typeof setRateLimitsInput>): KeyChanges {
  return { rateLimits: { ...key.rateLimits, ...definedLimits(input) } }
}

/** The 400 text of extend-trial and convert-to-paid on a key that is not a trial key. */
export const NOT_A_TRIAL_KEY = 'API key is not a trial key'

function requireTrial(key: ManagedApiKey): number {
  if (!key.isTrial || key.trialExpiresAtMs === null) throw new GatewayError('VALIDATION_FAILED', { reason: NOT_A_TRIAL_KEY })
  return key.trialExpiresAtMs
}

/** `POST /admin/api-keys/{id}/extend-trial`: from the later of now and the current end. */
export function extendTrialChanges(key: ManagedApiKey, days: number, nowMs: number): KeyChanges {
  return { trialExpiresAtMs: extendedTrialExpiryMs(requireTrial(key), nowMs, days) }
}

/** `POST /admin/api-keys/{id}/convert-to-paid`: the trial fields go, unset limits are the new type's defaults. */
export function convertToPaidChanges(key: ManagedApiKey, input: z.output<typeof convertToPaidInput>): KeyChanges {
  requireTrial(key)
  const defaults = defaultsForType(input.type)
  return {
    type: input.type,
    isTrial: false,
    trialExpiresAtMs: null,
    allowedNumbers: null,
    rateLimits: {
      ...defaults.rateLimits,
      ...definedLimits({ general: input.rateLimitGeneral, messages: input.rateLimitMessages, sessions: input.rateLimitSessions }),
    },
    maxSessions: input.maxSessions === undefined ? defaults.maxSessions : input.maxSessions,
  }
}
