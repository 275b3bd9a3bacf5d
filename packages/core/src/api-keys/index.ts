export { ApiKeyService } from './api-key-service.js'
export type { ApiKeyServiceOptions, ApiKeyEvents, CreatedApiKey, DeletedApiKey } from './service-options.js'
export { assertAccess, assertTrialRecipient, canAccessSession } from './access.js'
export type { SessionOwnership } from './access.js'
export { masterPrincipal, managedPrincipal, sessionPrincipal } from './principals.js'
export {
  MANAGED_KEY_PREFIX,
  SESSION_KEY_PREFIX,
  MASTER_KEY_MIN_SECRET_CHARS,
  generateKey,
  digestKey,
  hashKey,
  digestsEqual,
  isValidMasterKey,
} from './hashing.js'
export { STANDARD_DEFAULTS, PREMIUM_DEFAULTS, TRIAL_DEFAULTS, defaultsForType } from './key-types.js'
export type { KeyTypeDefaults } from './key-types.js'
export { DAY_MS, trialExpiryMs, extendedTrialExpiryMs, isTrialExpired, trialRestrictions } from './trial.js'
export { NOT_A_TRIAL_KEY, TRIAL_CREATE_DEFAULTS } from './key-changes.js'
export {
  RAW_KEY_WARNING,
  API_KEY_MESSAGES,
  createdApiKeyView,
  createdTrialKeyView,
  apiKeyDetails,
  apiKeyView,
  apiKeyListView,
  apiKeyActionView,
  apiKeyDeletedView,
  adminUsageView,
} from './views.js'
export type { ApiKeyDetails, CreatedApiKeyView, CreatedTrialKeyView, AdminUsageView } from './views.js'
export { MASTER_KEY_ID, API_KEYS_COLLECTION, SESSION_KEYS_COLLECTION } from './records.js'
export type { ManagedApiKey, ApiKeyRecord, SessionKeyRecord, RateLimits, KeyUsage } from './records.js'
