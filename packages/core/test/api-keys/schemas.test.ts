import { expect } from 'chai'
import {
  apiKeyIdInput,
  convertToPaidInput,
  createApiKeyInput,
  createTrialKeyInput,
  extendTrialInput,
  listApiKeysInput,
  setRateLimitsInput,
  updateApiKeyInput,
} from '../../src/schemas/api-keys.js'
import { parseInput } from '../../src/schemas/validate.js'
import { expectGatewayError } from './helpers.js'

const invalid = (schema: Parameters<typeof parseInput>[0], input: unknown, text: string) =>
  expectGatewayError(() => parseInput(schema, input), 'VALIDATION_FAILED', text)

describe('schemas/api-keys', () => {
  describe('createApiKeyInput', () => {
    it('accepts the spec fields, trimming the name and lower-casing the type', () => {
      expect(
        parseInput(createApiKeyInput, {
          name: '  Acme ',
          type: 'Premium',
          isAdmin: true,
          rateLimitGeneral: 1,
          rateLimitMessages: 2,
          rateLimitSessions: 3,
          maxSessions: null,
          metadata: { plan: 'x' },
          extra: 'ignored',
        }),
      ).to.deep.equal({
        name: 'Acme',
        type: 'premium',
        isAdmin: true,
        rateLimitGeneral: 1,
        rateLimitMessages: 2,
        rateLimitSessions: 3,
        maxSessions: null,
        metadata: { plan: 'x' },
      })
    })

    it('names the field of every refusal', async () => {
      await invalid(createApiKeyInput, {}, 'name is required')
      await invalid(createApiKeyInput, { name: '   ' }, 'name must not be empty')
      await invalid(createApiKeyInput, { name: 'x'.repeat(201) }, 'name must be at most 200 characters')
      await invalid(createApiKeyInput, { name: 'a', isAdmin: 'yes' }, 'isAdmin must be a boolean')
      await invalid(createApiKeyInput, { name: 'a', rateLimitGeneral: '10' }, 'rateLimitGeneral must be a number')
      await invalid(createApiKeyInput, { name: 'a', rateLimitMessages: 1.5 }, 'rateLimitMessages must be an integer')
      await invalid(createApiKeyInput, { name: 'a', rateLimitSessions: 0 }, 'rateLimitSessions must be at least 1')
      await invalid(createApiKeyInput, { name: 'a', rateLimitGeneral: 1_000_001 }, 'rateLimitGeneral must be at most 1000000')
      await invalid(createApiKeyInput, { name: 'a', maxSessions: -1 }, 'maxSessions must be at least 1')
      await invalid(createApiKeyInput, { name: 'a', metadata: [] }, 'metadata must be an object')
      await invalid(createApiKeyInput, { name: 'a', metadata: 'x' }, 'metadata must be an object')
      await invalid(createApiKeyInput, { name: 'a', metadata: { big: 'x'.repeat(16_384) } }, 'metadata must be at most 16384 bytes as JSON')
      await invalid(createApiKeyInput, { name: 'a', type: 'gold plan' }, 'type must contain only letters, digits, - and _')
      await invalid(createApiKeyInput, { name: 'a', type: '' }, 'type must not be empty')
    })

    it('leaves trial keys to the trial endpoint', async () => {
      await invalid(createApiKeyInput, { name: 'a', type: 'Trial' }, 'type trial is only available through POST /admin/api-keys/trial')
    })
  })

  describe('createTrialKeyInput', () => {
    it('requires name, trialDays and a non-empty allowedNumbers', async () => {
      expect(parseInput(createTrialKeyInput, { name: 'T', trialDays: 7, allowedNumbers: ['1'] })).to.deep.equal({
        name: 'T',
        trialDays: 7,
        allowedNumbers: ['1'],
      })
      await invalid(createTrialKeyInput, { name: 'T', allowedNumbers: ['1'] }, 'trialDays is required')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: '7', allowedNumbers: ['1'] }, 'trialDays must be a number')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 0, allowedNumbers: ['1'] }, 'trialDays must be at least 1')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 2.5, allowedNumbers: ['1'] }, 'trialDays must be an integer')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 3651, allowedNumbers: ['1'] }, 'trialDays must be at most 3650')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 7 }, 'allowedNumbers is required')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 7, allowedNumbers: [] }, 'allowedNumbers must have at least 1 item')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 7, allowedNumbers: '1' }, 'allowedNumbers must be an array')
      await invalid(createTrialKeyInput, { name: 'T', trialDays: 7, allowedNumbers: [1] }, 'allowedNumbers.0 must be a string')
      const trial = { name: 'T', trialDays: 7, allowedNumbers: ['1'] }
      await invalid(createTrialKeyInput, { ...trial, maxSessions: 0 }, 'maxSessions must be at least 1')
    })
  })

  describe('listApiKeysInput', () => {
    it('reads includeInactive from the query string', async () => {
      expect(parseInput(listApiKeysInput, { includeInactive: 'true', type: 'Standard' })).to.deep.equal({
        includeInactive: true,
        type: 'standard',
      })
      expect(parseInput(listApiKeysInput, { includeInactive: '0' })).to.deep.equal({ includeInactive: false })
      expect(parseInput(listApiKeysInput, { includeInactive: true })).to.deep.equal({ includeInactive: true })
      expect(parseInput(listApiKeysInput, {})).to.deep.equal({})
      await invalid(listApiKeysInput, { includeInactive: 'maybe' }, 'includeInactive must be a boolean')
    })
  })

  describe('updateApiKeyInput and setRateLimitsInput', () => {
    it('need at least one field', async () => {
      await invalid(
        updateApiKeyInput,
        {},
        'body must contain at least one of: name, rateLimitGeneral, rateLimitMessages, rateLimitSessions, maxSessions, metadata',
      )
      await invalid(setRateLimitsInput, { id: 'x' }, 'body must contain at least one of: general, messages, sessions')
      expect(parseInput(updateApiKeyInput, { maxSessions: null })).to.deep.equal({ maxSessions: null })
      expect(parseInput(setRateLimitsInput, { messages: 5 })).to.deep.equal({ messages: 5 })
    })

    it('check each field', async () => {
      await invalid(updateApiKeyInput, { name: '' }, 'name must not be empty')
      await invalid(setRateLimitsInput, { general: 0 }, 'general must be at least 1')
      await invalid(setRateLimitsInput, { sessions: 'many' }, 'sessions must be a number')
    })

    it('can be extended with the :id param for an operation input', () => {
      const withId = updateApiKeyInput.extend(apiKeyIdInput.shape)
      expect(parseInput(withId, { id: 'k1', name: 'n' })).to.deep.equal({ id: 'k1', name: 'n' })
    })
  })

  describe('extendTrialInput and convertToPaidInput', () => {
    it('days is a positive integer', async () => {
      expect(parseInput(extendTrialInput, { days: 3 })).to.deep.equal({ days: 3 })
      await invalid(extendTrialInput, {}, 'days is required')
      await invalid(extendTrialInput, { days: -2 }, 'days must be at least 1')
    })

    it('convert-to-paid needs a paid type', async () => {
      expect(parseInput(convertToPaidInput, { type: 'premium', maxSessions: 5 })).to.deep.equal({ type: 'premium', maxSessions: 5 })
      await invalid(convertToPaidInput, {}, 'type is required')
      await invalid(convertToPaidInput, { type: 'trial' }, 'type trial is only available through POST /admin/api-keys/trial')
    })
  })

  it('apiKeyIdInput needs an id', async () => {
    await invalid(apiKeyIdInput, {}, 'id is required')
  })
})
