/**
 * Builders for the api-keys tests: a service over the in-memory store and a test clock, a store
 * wrapper that counts writes and can fail the next ones, and an exact-error assertion.
 */
import { expect } from 'chai'
import { ApiKeyService } from '../../src/api-keys/api-key-service.js'
import type { ApiKeyServiceOptions } from '../../src/api-keys/service-options.js'
import { isGatewayError } from '../../src/errors/index.js'
import { sequentialIds } from '../../src/kernel/ids.js'
import { silentLogger, type Logger } from '../../src/kernel/logger.js'
import type { BatchWrite, Collection, Store } from '../../src/store/store.js'
import { createTestClock, type TestClock } from '../../src/testing/test-clock.js'
import { createMemoryStore } from '../support/memory-store.js'

export const MASTER_KEY = 'wamk_master-key-for-tests-0123456789abcdef'
export const DEFAULTS = { general: 100, messages: 30, sessions: 10 }
/** Valid numbers (libphonenumber): a US and a German mobile. */
export const US = '14155552671'
export const DE = '4915123456789'

/** A {@link Store} wrapper counting writes per operation, with `failNext(n)` to make the next n writes throw. */
export interface ProbeStore extends Store {
  writes: { set: number; batch: number; delete: number; clear: number }
  failNext(count?: number): void
}

export function probeStore(inner: Store = createMemoryStore()): ProbeStore {
  let failures = 0
  const writes = { set: 0, batch: 0, delete: 0, clear: 0 }
  const write = async <R>(op: keyof typeof writes, run: () => Promise<R>): Promise<R> => {
    if (failures > 0) {
      failures--
      throw new Error(`store ${op} failed`)
    }
    writes[op]++
    return run()
  }
  return {
    kind: inner.kind,
    writes,
    failNext: (count = 1) => {
      failures = count
    },
    close: () => inner.close(),
    collection<T>(name: string): Collection<T> {
      const c = inner.collection<T>(name)
      return {
        name,
        get: (id) => c.get(id),
        getMany: (ids) => c.getMany(ids),
        entries: (prefix) => c.entries(prefix),
        set: (id, value) => write('set', () => c.set(id, value)),
        delete: (id) => write('delete', () => c.delete(id)),
        batch: (w: BatchWrite<T>) => write('batch', () => c.batch(w)),
        clear: (prefix) => write('clear', () => c.clear(prefix)),
      }
    },
  }
}

export interface LogLine {
  level: string
  obj: unknown
  msg: string | undefined
}

export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const at =
    (level: string) =>
    (obj: object | string, msg?: string): void => {
      lines.push(typeof obj === 'string' ? { level, obj: {}, msg: obj } : { level, obj, msg })
    }
  const logger: Logger & { lines: LogLine[] } = {
    ...silentLogger,
    level: 'trace',
    lines,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
  }
  return logger
}

export interface Harness {
  service: ApiKeyService
  store: ProbeStore
  clock: TestClock
  logger: ReturnType<typeof recordingLogger>
  /** A new service over the same store and clock (a restart). */
  restart(): Promise<ApiKeyService>
}

export async function makeService(overrides: Partial<Omit<ApiKeyServiceOptions, 'masterKey' | 'masterKeyHash'>> = {}): Promise<Harness> {
  const clock = createTestClock()
  const store = probeStore()
  const logger = recordingLogger()
  const build = async (): Promise<ApiKeyService> => {
    const service = new ApiKeyService({
      store,
      clock,
      newId: sequentialIds('key'),
      logger,
      masterKey: MASTER_KEY,
      defaults: DEFAULTS,
      ...overrides,
    })
    await service.load()
    return service
  }
  const service = await build()
  return { service, store, clock, logger, restart: build }
}

/** Asserts that `run` throws or rejects with a GatewayError of this code and exact text. */
export async function expectGatewayError(run: () => unknown, code: string, message: string): Promise<void> {
  let caught: unknown
  try {
    await run()
  } catch (err) {
    caught = err
  }
  expect(caught, `expected ${code}`).to.not.equal(undefined)
  if (!isGatewayError(caught)) throw caught
  expect({ code: caught.code, message: caught.message }).to.deep.equal({ code, message })
}
