/**
 * `makeTestGateway()`: a gateway over an in-memory store, the scripted FakeDriver and a test
 * clock, with a known master key. Each test builds its own and closes it.
 */
import { createGateway, type Gateway } from '../../src/gateway.js'
import type { GatewayEvent } from '../../src/schemas/events.js'
import { openStore } from '../../src/store/index.js'
import type { Store } from '../../src/store/store.js'
import { createTestClock, type TestClock } from '../../src/testing/test-clock.js'
import { sequentialIds } from '../../src/kernel/ids.js'
import { FakeDriver } from './fake-driver.js'
import type { GatewayOptions } from '../../src/options.js'

export const ADMIN_KEY = 'wamk_test_master_key_0123456789abcdefghijkl'

export interface TestGateway {
  gateway: Gateway
  driver: FakeDriver
  clock: TestClock
  store: Store
  events: GatewayEvent[]
  /** Events of one name, in order. */
  eventsOf<E extends GatewayEvent['event']>(name: E): Extract<GatewayEvent, { event: E }>[]
  /** A fresh gateway over the same store and driver (a restart). */
  restart(): Promise<TestGateway>
}

export async function makeTestGateway(
  overrides: Partial<GatewayOptions> & { store?: Store; clock?: TestClock; driver?: FakeDriver } = {},
): Promise<TestGateway> {
  const clock = overrides.clock ?? createTestClock()
  const store = overrides.store ?? (await openStore('memory'))
  const driver = overrides.driver ?? new FakeDriver(clock)
  const gateway = await createGateway({
    adminKey: ADMIN_KEY,
    newId: sequentialIds('id'),
    random: () => 0.5,
    fetch: (async () => new Response(null, { status: 204 })) as typeof fetch,
    ...overrides,
    store,
    network: driver,
    clock,
  })
  const events: GatewayEvent[] = []
  gateway.onEvent((e) => events.push(e))
  await gateway.start()
  const self: TestGateway = {
    gateway,
    driver,
    clock,
    store,
    events,
    eventsOf: (name) => events.filter((e) => e.event === name) as never,
    restart: async () => {
      await gateway.close()
      return makeTestGateway({ ...overrides, store, clock, driver: new FakeDriver(clock) })
    },
  }
  return self
}
