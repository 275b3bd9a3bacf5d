/**
 * The api-keys room: the master key, managed keys (admin, tenant, trial) and session keys. Every
 * key lives in memory after {@link ApiKeyService.load}, so authenticating a request never waits on
 * the store. Admin changes are written through (the call returns once stored); usage counters and
 * `lastUsedAt` are written behind, at most once per `usageFlushIntervalMs`.
 * @module
 */
import { normalizePhone } from '../addressing/phone.js'
import { GatewayError } from '../errors/index.js'
import type { Clock } from '../kernel/clock.js'
import { TypedEmitter, type Listener } from '../kernel/emitter.js'
import type { NewId } from '../kernel/ids.js'
import type { Logger } from '../kernel/logger.js'
import type { AccessRule, Principal } from '../operations/types.js'
import {
  convertToPaidInput,
  createApiKeyInput,
  createTrialKeyInput,
  extendTrialInput,
  listApiKeysInput,
  setRateLimitsInput,
  updateApiKeyInput,
  type ConvertToPaidInput,
  type CreateApiKeyInput,
  type CreateTrialKeyInput,
  type ListApiKeysInput,
  type SetRateLimitsInput,
  type UpdateApiKeyInput,
} from '../schemas/api-keys.js'
import { parseInput } from '../schemas/validate.js'
import type { Collection } from '../store/store.js'
import { assertAccess, assertTrialRecipient, type SessionOwnership } from './access.js'
import { digestKey, digestsEqual, generateKey, hashKey, MANAGED_KEY_PREFIX, SESSION_KEY_PREFIX } from './hashing.js'
import {
  buildManagedKey,
  buildTrialKey,
  convertToPaidChanges,
  extendTrialChanges,
  rateLimitChanges,
  updateChanges,
  type KeyChanges,
} from './key-changes.js'
import { managedPrincipal, masterPrincipal, sessionPrincipal } from './principals.js'
import {
  API_KEYS_COLLECTION,
  MASTER_KEY_ID,
  SESSION_KEYS_COLLECTION,
  type ApiKeyRecord,
  type ManagedApiKey,
  type RateLimits,
  type SessionKeyRecord,
} from './records.js'
import {
  masterDigestOf,
  type ApiKeyEvents,
  type ApiKeyServiceOptions,
  type CreatedApiKey,
  type DeletedApiKey,
} from './service-options.js'
import { SessionKeyRegistry } from './session-keys.js'
import { WriteBehind } from './write-behind.js'

/** The map look-up already matched the hash; the constant-time check keeps the comparison itself timing-safe. */
function sameDigest(storedHex: string, digest: Buffer): boolean {
  return digestsEqual(Buffer.from(storedHex, 'hex'), digest)
}

export class ApiKeyService {
  readonly #clock: Clock
  readonly #newId: NewId
  readonly #logger: Logger
  readonly #defaults: RateLimits
  readonly #masterDigest: Buffer
  readonly #keys: Collection<ApiKeyRecord>
  readonly #sessionKeys: SessionKeyRegistry
  readonly #events: TypedEmitter<ApiKeyEvents>
  readonly #usage: WriteBehind
  readonly #byId = new Map<string, ApiKeyRecord>()
  readonly #byHash = new Map<string, ApiKeyRecord>()
  #writes: Promise<unknown> = Promise.resolve()
  #loaded = false

  constructor(options: ApiKeyServiceOptions) {
    this.#masterDigest = masterDigestOf(options)
    this.#clock = options.clock
    this.#newId = options.newId
    this.#logger = options.logger
    this.#defaults = { ...options.defaults }
    this.#keys = options.store.collection<ApiKeyRecord>(API_KEYS_COLLECTION)
    this.#sessionKeys = new SessionKeyRegistry(options.store.collection<SessionKeyRecord>(SESSION_KEYS_COLLECTION))
    this.#events = new TypedEmitter<ApiKeyEvents>((err, event) => this.#logger.error({ err, event }, 'api key listener failed'))
    this.#usage = new WriteBehind({
      clock: options.clock,
      intervalMs: options.usageFlushIntervalMs ?? 10_000,
      write: (ids) => this.#writeUsage(ids),
      onError: (err, ids) => this.#logger.warn({ err, keyIds: ids }, 'api key usage not saved; will retry'),
    })
  }

  /** Reads every key into memory. Call once before anything else. */
  async load(): Promise<void> {
    await this.#serial(async () => {
      this.#byId.clear()
      this.#byHash.clear()
      for await (const [, record] of this.#keys.entries()) this.#index(record)
      await this.#sessionKeys.load()
      this.#loaded = true
      this.#logger.debug({ keys: this.#byId.size, sessionKeys: this.#sessionKeys.size }, 'api keys loaded')
    })
  }

  /** Subscribes to a room event; returns the unsubscribe function. */
  on<E extends keyof ApiKeyEvents>(event: E, fn: Listener<ApiKeyEvents[E]>): () => void {
    return this.#events.on(event, fn)
  }

  /**
   * The principal of a raw key (from `X-API-Key`, `Authorization: Bearer` or `api_key`). Throws
   * `API_KEY_REQUIRED` (missing), `API_KEY_INVALID` (unknown, or a session key whose account key
   * was deleted), `API_KEY_DEACTIVATED`, `TRIAL_EXPIRED`. Synchronous: memory only.
   */
  authenticate(raw: string | undefined): Principal {
    this.#assertLoaded()
    const key = raw?.trim() ?? ''
    if (key === '') throw new GatewayError('API_KEY_REQUIRED')
    const digest = digestKey(key)
    const hash = digest.toString('hex')
    const nowMs = this.#clock.now()
    if (key.startsWith(SESSION_KEY_PREFIX)) {
      const record = this.#sessionKeys.find(hash)
      if (record === undefined || !sameDigest(record.keyHash, digest)) throw new GatewayError('API_KEY_INVALID')
      const principal = sessionPrincipal(record, this.#accountPrincipal(record.accountKeyId, nowMs))
      this.#touch(record.accountKeyId, nowMs)
      return principal
    }
    if (key.startsWith(MANAGED_KEY_PREFIX)) {
      if (digestsEqual(digest, this.#masterDigest)) return masterPrincipal(this.#defaults)
      const record = this.#byHash.get(hash)
      if (record === undefined || !sameDigest(record.keyHash, digest)) throw new GatewayError('API_KEY_INVALID')
      const principal = managedPrincipal(record, nowMs)
      this.#touch(record.id, nowMs)
      return principal
    }
    throw new GatewayError('API_KEY_INVALID')
  }

  /**
   * The principal of an account key (`master` or a managed key id) for work without a request,
   * such as scheduled and broadcast sends. Same checks as {@link authenticate}; a deleted key is
   * `API_KEY_INVALID`.
   */
  principalOf(accountKeyId: string): Principal {
    this.#assertLoaded()
    return this.#accountPrincipal(accountKeyId, this.#clock.now())
  }

  /** The principal of the master key (embedders calling rooms directly act as it). */
  masterPrincipal(): Principal {
    return masterPrincipal(this.#defaults)
  }

  /** {@link assertAccess} as a method, for callers holding the service. */
  assertAccess(principal: Principal | undefined, rule: AccessRule, session?: SessionOwnership): void {
    assertAccess(principal, rule, session)
  }

  /** {@link assertTrialRecipient} as a method, for callers holding the service. */
  assertTrialRecipient(principal: Principal, recipient: string): void {
    assertTrialRecipient(principal, recipient)
  }

  /** `POST /admin/api-keys`: a new managed key; the raw key is returned this once. */
  async create(raw: CreateApiKeyInput): Promise<CreatedApiKey> {
    const input = parseInput(createApiKeyInput, raw)
    const key = generateKey(MANAGED_KEY_PREFIX)
    return this.#insert(buildManagedKey({ id: this.#newId(), keyHash: hashKey(key), nowMs: this.#clock.now() }, input), key)
  }

  /** `POST /admin/api-keys/trial`: a trial key; `allowedNumbers` are normalized (`Invalid phone number format`). */
  async createTrial(raw: CreateTrialKeyInput): Promise<CreatedApiKey> {
    const input = parseInput(createTrialKeyInput, raw)
    const allowedNumbers = [...new Set(input.allowedNumbers.map((number) => normalizePhone(number)))]
    const key = generateKey(MANAGED_KEY_PREFIX)
    const basics = { id: this.#newId(), keyHash: hashKey(key), nowMs: this.#clock.now() }
    return this.#insert(buildTrialKey(basics, input, allowedNumbers), key)
  }

  /** `GET /admin/api-keys`: active keys (all with `includeInactive`), optionally of one type, oldest first. */
  list(raw: ListApiKeysInput = {}): ManagedApiKey[] {
    this.#assertLoaded()
    const input = parseInput(listApiKeysInput, raw)
    return [...this.#byId.values()]
      .filter((record) => input.includeInactive === true || record.isActive)
      .filter((record) => input.type === undefined || record.type === input.type)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((record) => this.#public(record))
  }

  /** `GET /admin/api-keys/{id}`; `API_KEY_NOT_FOUND` when unknown. */
  get(id: string): ManagedApiKey {
    this.#assertLoaded()
    return this.#public(this.#require(id))
  }

  /** `PUT /admin/api-keys/{id}`. */
  async update(id: string, raw: UpdateApiKeyInput): Promise<ManagedApiKey> {
    const input = parseInput(updateApiKeyInput, raw)
    return this.#change(id, (record) => updateChanges(record, input))
  }

  /** `PUT /admin/api-keys/{id}/rate-limits`. */
  async setRateLimits(id: string, raw: SetRateLimitsInput): Promise<ManagedApiKey> {
    const input = parseInput(setRateLimitsInput, raw)
    return this.#change(id, (record) => rateLimitChanges(record, input))
  }

  /** `POST /admin/api-keys/{id}/activate`. */
  async activate(id: string): Promise<ManagedApiKey> {
    return this.#change(id, () => ({ isActive: true }))
  }

  /** `POST /admin/api-keys/{id}/deactivate`: refused from the next request on; reversible. */
  async deactivate(id: string): Promise<ManagedApiKey> {
    return this.#change(id, () => ({ isActive: false }))
  }

  /** `POST /admin/api-keys/{id}/extend-trial`; a non-trial key is a 400 (`API key is not a trial key`). */
  async extendTrial(id: string, days: number): Promise<ManagedApiKey> {
    const input = parseInput(extendTrialInput, { days })
    return this.#change(id, (record) => extendTrialChanges(record, input.days, this.#clock.now()))
  }

  /** `POST /admin/api-keys/{id}/convert-to-paid`; a non-trial key is a 400 (`API key is not a trial key`). */
  async convertToPaid(id: string, raw: ConvertToPaidInput): Promise<ManagedApiKey> {
    const input = parseInput(convertToPaidInput, raw)
    return this.#change(id, (record) => convertToPaidChanges(record, input))
  }

  /**
   * `DELETE /admin/api-keys/{id}`: irreversible. The key and the session keys issued under it stop
   * working at once; the result (and the `apiKey.deleted` event) names those sessions.
   */
  async delete(id: string): Promise<DeletedApiKey> {
    this.#assertLoaded()
    return this.#serial(async () => {
      const record = this.#require(id)
      this.#unindex(record)
      try {
        await this.#keys.delete(id)
      } catch (err) {
        this.#index(record)
        throw err
      }
      const sessionIds = this.#sessionKeys.sessionsOf(id)
      this.#logger.info({ keyId: id, sessions: sessionIds.length }, 'api key deleted')
      const deleted = { keyId: id, sessionIds }
      this.#events.emit('apiKey.deleted', { keyId: id, sessionIds: [...sessionIds] })
      return deleted
    })
  }

  /**
   * A new session key for a session created by `accountKeyId` (`master` or a managed key id);
   * returned raw this once. `API_KEY_INVALID` when the account key no longer exists.
   */
  async issueSessionKey(sessionId: string, accountKeyId: string): Promise<string> {
    this.#assertLoaded()
    const key = generateKey(SESSION_KEY_PREFIX)
    const id = this.#newId()
    const record: SessionKeyRecord = { id, sessionId, accountKeyId, keyHash: hashKey(key), createdAtMs: this.#clock.now() }
    await this.#serial(async () => {
      if (accountKeyId !== MASTER_KEY_ID && !this.#byId.has(accountKeyId)) throw new GatewayError('API_KEY_INVALID')
      await this.#sessionKeys.add(record)
    })
    return key
  }

  /** Revokes every key of a session: at once in memory, then in the store. */
  async revokeSessionKeys(sessionId: string): Promise<void> {
    this.#assertLoaded()
    this.#sessionKeys.forget(sessionId)
    await this.#serial(() => this.#sessionKeys.removeStored(sessionId))
  }

  /** Counts sent messages on the account key (memory now, store later). Unknown ids and `master` are ignored. */
  recordMessageSent(accountKeyId: string, count = 1): void {
    const record = this.#byId.get(accountKeyId)
    if (record === undefined) return
    record.usage.messagesSent += count
    this.#usage.mark(record.id)
  }

  /** Counts a created session on the account key (memory now, store later). */
  recordSessionCreated(accountKeyId: string): void {
    const record = this.#byId.get(accountKeyId)
    if (record === undefined) return
    record.usage.sessionsCreated += 1
    this.#usage.mark(record.id)
  }

  /** Writes pending usage and `lastUsedAt` now. */
  async flush(): Promise<void> {
    await this.#usage.flush()
  }

  /** Writes pending usage and stops the flush timer. The store stays open (its owner closes it). */
  async close(): Promise<void> {
    await this.#usage.close()
    await this.#writes
    this.#events.removeAll()
  }

  #accountPrincipal(accountKeyId: string, nowMs: number): Principal {
    if (accountKeyId === MASTER_KEY_ID) return masterPrincipal(this.#defaults)
    const record = this.#byId.get(accountKeyId)
    if (record === undefined) throw new GatewayError('API_KEY_INVALID')
    return managedPrincipal(record, nowMs)
  }

  #touch(id: string, nowMs: number): void {
    const record = this.#byId.get(id)
    if (record === undefined) return
    record.lastUsedAtMs = nowMs
    this.#usage.mark(id)
  }

  async #insert(record: ApiKeyRecord, key: string): Promise<CreatedApiKey> {
    this.#assertLoaded()
    await this.#serial(async () => {
      await this.#keys.set(record.id, structuredClone(record))
      this.#index(record)
    })
    this.#logger.info({ keyId: record.id, type: record.type, isAdmin: record.isAdmin }, 'api key created')
    return { apiKey: this.#public(record), key }
  }

  /** Applies changes once stored: memory never shows a change the store refused. */
  async #change(id: string, changesOf: (record: ManagedApiKey) => KeyChanges): Promise<ManagedApiKey> {
    this.#assertLoaded()
    return this.#serial(async () => {
      const record = this.#require(id)
      const changes = changesOf(this.#public(record))
      await this.#keys.set(id, { ...structuredClone(record), ...structuredClone(changes) })
      Object.assign(record, changes)
      return this.#public(record)
    })
  }

  async #writeUsage(ids: string[]): Promise<void> {
    await this.#serial(async () => {
      const set = ids.flatMap((id): [string, ApiKeyRecord][] => {
        const record = this.#byId.get(id)
        return record === undefined ? [] : [[id, structuredClone(record)]]
      })
      if (set.length > 0) await this.#keys.batch({ set })
    })
  }

  /** Store writes run one at a time, in call order, so a late usage write cannot revive a deleted key. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(task, task)
    this.#writes = run.catch(() => {})
    return run
  }

  #require(id: string): ApiKeyRecord {
    const record = this.#byId.get(id)
    if (record === undefined) throw new GatewayError('API_KEY_NOT_FOUND')
    return record
  }

  #index(record: ApiKeyRecord): void {
    this.#byId.set(record.id, record)
    this.#byHash.set(record.keyHash, record)
  }

  #unindex(record: ApiKeyRecord): void {
    this.#byId.delete(record.id)
    this.#byHash.delete(record.keyHash)
  }

  #public(record: ApiKeyRecord): ManagedApiKey {
    const { keyHash: _hash, ...key } = structuredClone(record)
    return key
  }

  #assertLoaded(): void {
    if (!this.#loaded) throw new Error('ApiKeyService.load() must be called before use')
  }
}
