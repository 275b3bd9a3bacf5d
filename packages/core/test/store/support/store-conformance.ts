/**
 * The Store conformance suite: one set of tests, run against every backend by its own test file
 * with a {@link StoreHarness}. Each test works in collections of its own, so tests never see each
 * other's data; the harness removes the run's data in `dispose()`.
 */
import type { Store } from '../../../src/store/index.js'
import { describeAuthStoreConformance } from './auth-conformance.js'
import { describeBasics, describeValues } from './conformance-records.js'
import { describeBatch, describeEntries, describeLifecycle } from './conformance-listing.js'
import type { HarnessFactory, StoreHarness, SuiteContext } from './store-helpers.js'

export type { HarnessFactory, StoreHarness } from './store-helpers.js'

/** Declares the whole suite; `makeHarness` may skip it (`ctx.skip()`) when its service is missing. */
export function describeStoreConformance(title: string, makeHarness: HarnessFactory): void {
  describe(title, function () {
    let harness: StoreHarness | undefined
    let current: Store | undefined
    const opened: Store[] = []
    let counter = 0
    let name = ''

    before(async function () {
      harness = await makeHarness(this)
    })
    after(async () => {
      await harness?.dispose()
    })
    beforeEach(async () => {
      if (harness === undefined) return
      name = `c${++counter}`
      current = await harness.open()
      opened.push(current)
    })
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()))
    })

    const ctx: SuiteContext = {
      store: () => current as Store,
      name: () => name,
      harness: () => harness as StoreHarness,
      async reopen() {
        const store = await (harness as StoreHarness).open()
        opened.push(store)
        return store
      },
    }
    describeBasics(ctx)
    describeValues(ctx)
    describeEntries(ctx)
    describeBatch(ctx)
    describeLifecycle(ctx)
    describeAuthStoreConformance(ctx)
  })
}
