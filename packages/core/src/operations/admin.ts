/**
 * REST operations of the Admin part of the spec: managed API keys and usage.
 * @module
 */
import { z } from 'zod'
import {
  apiKeyActionView,
  apiKeyDeletedView,
  apiKeyListView,
  apiKeyView,
  adminUsageView,
  createdApiKeyView,
  createdTrialKeyView,
  API_KEY_MESSAGES,
} from '../api-keys/index.js'
import { isoAt } from '../kernel/clock.js'
import {
  convertToPaidInput,
  createApiKeyInput,
  createTrialKeyInput,
  extendTrialInput,
  listApiKeysInput,
  setRateLimitsInput,
  updateApiKeyInput,
} from '../schemas/api-keys.js'
import { parseInput } from '../schemas/validate.js'
import type { Gateway } from '../gateway.js'
import type { OperationSpec } from './types.js'

const keyRef = z.object({ keyId: z.string().min(1).max(200) })
const keyIdOf = (raw: unknown): string => parseInput(keyRef, raw).keyId
/** Path id plus a body schema, for the docs (the service parses the body itself). */
const withKey = <S extends z.ZodType>(body: S) => z.intersection(keyRef, body)

export const ADMIN_OPERATIONS = {
  'admin.keys.create': {
    summary: 'Create a managed API key (standard, premium, …); the raw key is shown once',
    access: 'admin',
    input: createApiKeyInput,
    successStatus: 201,
    async run(gw, raw) {
      const { apiKey, key } = await gw.keys.create(raw as never)
      return createdApiKeyView(apiKey, key)
    },
  },
  'admin.keys.createTrial': {
    summary: 'Create a trial key limited in time and to allowed recipient numbers',
    access: 'admin',
    input: createTrialKeyInput,
    successStatus: 201,
    async run(gw, raw) {
      const { apiKey, key } = await gw.keys.createTrial(raw as never)
      return createdTrialKeyView(apiKey, key)
    },
  },
  'admin.keys.list': {
    summary: 'List managed keys (?includeInactive=true, ?type=…)',
    access: 'admin',
    input: listApiKeysInput,
    async run(gw, raw) {
      return apiKeyListView(gw.keys.list(raw as never))
    },
  },
  'admin.keys.get': {
    summary: 'Details of a managed key (never its secret)',
    access: 'admin',
    input: keyRef,
    async run(gw, raw) {
      return apiKeyView(gw.keys.get(keyIdOf(raw)))
    },
  },
  'admin.keys.update': {
    summary: 'Change name, general or message limit, or maxSessions of a key',
    access: 'admin',
    input: withKey(updateApiKeyInput),
    async run(gw, raw) {
      return apiKeyActionView(API_KEY_MESSAGES.updated, await gw.keys.update(keyIdOf(raw), strip(raw)))
    },
  },
  'admin.keys.setRateLimits': {
    summary: 'Change the rate limits (general, messages, sessions) of a key',
    access: 'admin',
    input: withKey(setRateLimitsInput),
    async run(gw, raw) {
      return apiKeyActionView(API_KEY_MESSAGES.rateLimitsUpdated, await gw.keys.setRateLimits(keyIdOf(raw), strip(raw)))
    },
  },
  'admin.keys.deactivate': {
    summary: 'Deactivate a key (it can be activated again)',
    access: 'admin',
    input: keyRef,
    async run(gw, raw) {
      return apiKeyActionView(API_KEY_MESSAGES.deactivated, await gw.keys.deactivate(keyIdOf(raw)))
    },
  },
  'admin.keys.activate': {
    summary: 'Activate a deactivated key',
    access: 'admin',
    input: keyRef,
    async run(gw, raw) {
      return apiKeyActionView(API_KEY_MESSAGES.activated, await gw.keys.activate(keyIdOf(raw)))
    },
  },
  'admin.keys.delete': {
    summary: 'Delete a key permanently; the sessions created with it lose access and stop',
    access: 'admin',
    input: keyRef,
    async run(gw, raw) {
      await gw.deleteApiKey(keyIdOf(raw))
      return apiKeyDeletedView()
    },
  },
  'admin.keys.extendTrial': {
    summary: 'Extend a trial key by a number of days',
    access: 'admin',
    input: withKey(extendTrialInput),
    async run(gw, raw) {
      const { days } = parseInput(extendTrialInput, strip(raw))
      return apiKeyActionView(API_KEY_MESSAGES.trialExtended, await gw.keys.extendTrial(keyIdOf(raw), days))
    },
  },
  'admin.keys.convertToPaid': {
    summary: 'Convert a trial key into a paid key of the given type',
    access: 'admin',
    input: withKey(convertToPaidInput),
    async run(gw, raw) {
      return apiKeyActionView(API_KEY_MESSAGES.convertedToPaid, await gw.keys.convertToPaid(keyIdOf(raw), strip(raw)))
    },
  },
  'admin.usage': {
    summary: 'Usage statistics over all keys',
    access: 'admin',
    input: z.object({}),
    async run(gw) {
      const sessionsByKey = new Map<string, number>()
      const sessions = gw.sessions.all()
      for (const s of sessions) sessionsByKey.set(s.accountKeyId, (sessionsByKey.get(s.accountKeyId) ?? 0) + 1)
      return adminUsageView(gw.keys.list({ includeInactive: true }), { sessionsByKey, totalSessions: sessions.length })
    },
  },
  'admin.keys.usage': {
    summary: 'Usage of one key and of the sessions created with it',
    access: 'admin',
    input: keyRef,
    async run(gw, raw) {
      const key = gw.keys.get(keyIdOf(raw))
      const sessions = gw.sessions.all().filter((s) => s.accountKeyId === key.id)
      return {
        apiKey: { id: key.id, name: key.name, type: key.type },
        usage: {
          totalSessions: key.usage.sessionsCreated,
          activeSessions: sessions.filter((s) => s.state === 'ready').length,
          totalMessagesSent: key.usage.messagesSent,
          totalMessagesReceived: sessions.reduce((n, s) => n + s.messagesReceived, 0),
        },
        sessions: sessions.map((s) => ({
          id: s.id,
          name: s.name,
          state: s.state,
          phoneNumber: s.phoneNumber ?? null,
          messagesSent: s.messagesSent,
          messagesReceived: s.messagesReceived,
          createdAt: isoAt(s.createdAtMs),
        })),
      }
    },
  },
} as const satisfies Record<string, OperationSpec<Gateway>>

/** The body without the path id. */
function strip(raw: unknown): never {
  const { keyId: _keyId, ...rest } = (raw ?? {}) as Record<string, unknown>
  return rest as never
}
