/**
 * The contract suite itself: a harness that lacks capabilities gets those tests skipped, with the
 * reason in the title, never passed. Runs the suite in process under stand-in mocha globals.
 */
import { expect } from 'chai'
import { runDriverContract } from '@switchboard/core/testing'
import type { DriverHarness } from '@switchboard/core/testing'
import { makeSandboxHarness } from '../support/sandbox-harness.js'

type Fn = (this: Ctx) => Promise<void>
interface Ctx {
  skip(): never
  test: { title: string }
}
const SKIPPED = Symbol('skipped')

/** Collects the suite's tests with stand-ins for mocha's globals, restoring the real ones after. */
function collect(register: () => void): { tests: { title: string; fn: Fn }[]; before: Fn[]; after: Fn[] } {
  const g = globalThis as unknown as Record<string, unknown>
  const saved = Object.fromEntries(['describe', 'it', 'beforeEach', 'afterEach'].map((k) => [k, g[k]]))
  const found = { tests: [] as { title: string; fn: Fn }[], before: [] as Fn[], after: [] as Fn[] }
  const path: string[] = []
  g.describe = (title: string, fn: () => void) => {
    path.push(title)
    fn()
    path.pop()
  }
  g.it = (title: string, fn: Fn) => found.tests.push({ title: [...path, title].join(' › '), fn })
  g.beforeEach = (fn: Fn) => found.before.push(fn)
  g.afterEach = (fn: Fn) => found.after.push(fn)
  try {
    register()
  } finally {
    Object.assign(g, saved)
  }
  return found
}

async function runAll(makeHarness: () => Promise<DriverHarness>, only?: string) {
  const suite = collect(() => runDriverContract('reduced', makeHarness))
  const results: { title: string; outcome: 'passed' | 'skipped' | 'failed'; error?: unknown }[] = []
  for (const test of suite.tests.filter((t) => only === undefined || t.title.includes(only))) {
    const ctx: Ctx = {
      test: { title: test.title },
      skip: () => {
        throw SKIPPED
      },
    }
    let outcome: 'passed' | 'skipped' | 'failed' = 'passed'
    let error: unknown
    for (const hook of suite.before) await hook.call(ctx)
    try {
      await test.fn.call(ctx)
    } catch (err) {
      outcome = err === SKIPPED ? 'skipped' : 'failed'
      error = err
    }
    for (const hook of suite.after) await hook.call(ctx)
    results.push({ title: ctx.test.title, outcome, ...(outcome === 'failed' ? { error } : {}) })
  }
  return results
}

describe('runDriverContract()', () => {
  it('skips, with the reason in the title, what a harness cannot do; the rest passes', async function () {
    this.timeout(10_000)
    const results = await runAll(async () => {
      const full = await makeSandboxHarness()
      const { scan: _scan, enterCode: _code, restart: _restart, drop: _drop, unlinkFromPhone: _unlink, ...rest } = full
      const { react: _react, presences: _presences, ...peer } = full.peers[0]!
      return { ...rest, peers: [peer], unsupported: { offlineDelivery: 'this network keeps nothing for offline devices' } }
    })
    expect(results.filter((r) => r.outcome === 'failed').map((r) => `${r.title}: ${String(r.error)}`)).to.deep.equal([])
    const skipped = results.filter((r) => r.outcome === 'skipped').map((r) => r.title.replace(/^driver contract: reduced › /, ''))
    expect(skipped).to.deep.equal([
      'linking › links by QR: starting, qr, connecting, authenticated, open (skipped: harness has no scan)',
      'linking › links by a pairing code entered on the phone (skipped: harness has no pairingCode)',
      'linking › restores a linked session after a restart, without a QR (skipped: harness has no restart)',
      'messaging › hears the peer react to its message (message.reaction) (skipped: harness has no reactions)',
      'messaging › shows a typing indicator to the peer (skipped: harness has no presence)',
      'groups › creates a group with the peers; metadata names the owner and roles (skipped: harness has no groups)',
      'groups › removes, adds and promotes participants, with group.participants events (skipped: harness has no groups)',
      'groups › sends to a group: every member receives it (skipped: harness has no groups)',
      'connection faults and closing › comes back after a dropped connection (skipped: harness has no drop)',
      'connection faults and closing › delivers what arrived while closed on the next open, marked offline (skipped: this network keeps nothing for offline devices)',
      'connection faults and closing › goes logged_out and loses its credentials when the phone unlinks it (skipped: harness has no unlinkFromPhone)',
    ])
    expect(results.filter((r) => r.outcome === 'passed')).to.have.length(results.length - skipped.length)
  })

  it('a failing driver fails the suite instead of passing it', async function () {
    this.timeout(10_000)
    const results = await runAll(async () => {
      const full = await makeSandboxHarness()
      const driver = full.driver
      const fakeSend = async () => ({ id: 'fake', to: 'x@s.whatsapp.net', timestampMs: 0 })
      full.driver = new Proxy(driver, {
        get(target, prop) {
          if (prop === 'send') return fakeSend
          const value: unknown = Reflect.get(target, prop, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
      return full
    }, 'sends a text the peer receives')
    const failed = results.filter((r) => r.outcome === 'failed').map((r) => r.title)
    expect(failed).to.deep.equal(['driver contract: reduced › messaging › sends a text the peer receives; delivered follows, statuses never go back'])
  })
})
