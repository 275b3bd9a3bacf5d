/**
 * Conformance, part 2: entries / clear by prefix, batches, close and reopen.
 */
import { expect } from 'chai'
import type { SuiteContext } from './store-helpers.js'
import { collect, idsOf, rejectionOf } from './store-helpers.js'

export function describeEntries(t: SuiteContext): void {
  const ids = ['a:1', 'a:1x', 'a:1:y', 'a:10', 'a:', 'a', 'A:1', 'ab:1', 'a_b:1', 'axb:1', 'a%:1', 'a%b:1']
  ids.push('a*:1', 'a?:1', 'a[b]:1', 'a\\:1', 'é:1')

  describe('entries / clear', () => {
    it('lists every entry without a prefix', async () => {
      const c = t.store().collection<string>(t.name())
      for (const id of ids) await c.set(id, id)
      const entries = await collect(c.entries())
      expect(entries.map(([id]) => id).sort()).to.deep.equal([...ids].sort())
      for (const [id, value] of entries) expect(value).to.equal(id)
    })

    it('lists only ids under `prefix:`, exactly (case, LIKE and glob wildcards, boundaries)', async () => {
      const c = t.store().collection<string>(t.name())
      for (const id of ids) await c.set(id, id)
      const under = (prefix: string): Promise<string[]> => idsOf(t.store(), t.name(), prefix)
      expect(await under('a')).to.deep.equal(['a:', 'a:1', 'a:1:y', 'a:10', 'a:1x'].sort())
      expect(await under('a:1')).to.deep.equal(['a:1:y'])
      expect(await under('a:1x')).to.deep.equal([])
      expect(await under('A')).to.deep.equal(['A:1'])
      expect(await under('a_b')).to.deep.equal(['a_b:1'])
      expect(await under('a%')).to.deep.equal(['a%:1'])
      expect(await under('a*')).to.deep.equal(['a*:1'])
      expect(await under('a?')).to.deep.equal(['a?:1'])
      expect(await under('a[b]')).to.deep.equal(['a[b]:1'])
      expect(await under('a\\')).to.deep.equal(['a\\:1'])
      expect(await under('é')).to.deep.equal(['é:1'])
      expect(await under('zzz')).to.deep.equal([])
    })

    it('pages through large collections, each entry once', async () => {
      const c = t.store().collection<number>(t.name())
      const set: [string, number][] = Array.from({ length: 1_200 }, (_, i) => [`s:${String(i).padStart(4, '0')}`, i])
      await c.batch({ set: [...set, ['other:1', -1]] })
      const entries = await collect(c.entries('s'))
      expect(entries).to.have.length(1_200)
      expect(new Set(entries.map(([id]) => id)).size).to.equal(1_200)
      expect(entries.reduce((sum, [, v]) => sum + v, 0)).to.equal((1_199 * 1_200) / 2)
    })

    it('clears only ids under `prefix:`', async () => {
      const c = t.store().collection<string>(t.name())
      for (const id of ids) await c.set(id, id)
      await c.clear('a_b')
      await c.clear('a%')
      await c.clear('a:1')
      await c.clear('a*')
      expect(await idsOf(t.store(), t.name())).to.deep.equal(
        ids.filter((id) => !['a_b:1', 'a%:1', 'a:1:y', 'a*:1'].includes(id)).sort(),
      )
      await c.clear('a')
      expect(await idsOf(t.store(), t.name())).to.deep.equal(
        ['a', 'A:1', 'ab:1', 'axb:1', 'a%b:1', 'a?:1', 'a[b]:1', 'a\\:1', 'é:1'].sort(),
      )
    })

    it('clears everything without a prefix, and only in its collection', async () => {
      const c = t.store().collection<number>(t.name())
      const other = t.store().collection<number>(`${t.name()}o`)
      await c.batch({ set: [['a:1', 1], ['b', 2]] })
      await other.set('a:1', 3)
      await c.clear()
      expect(await collect(c.entries())).to.deep.equal([])
      expect(await other.get('a:1')).to.equal(3)
      await other.clear()
    })

    it('lets the consumer write while it iterates', async () => {
      const c = t.store().collection<number>(t.name())
      await c.batch({ set: Array.from({ length: 30 }, (_, i): [string, number] => [`p:${i}`, i]) })
      for await (const [id, value] of c.entries('p')) await c.set(`q:${id}`, value)
      expect(await collect(c.entries('q'))).to.have.length(30)
    })
  })
}

export function describeBatch(t: SuiteContext): void {
  describe('batch', () => {
    it('writes sets and deletes together', async () => {
      const c = t.store().collection<number>(t.name())
      await c.batch({ set: [['gone', 0], ['kept', 1]] })
      await c.batch({ set: [['a', 1], ['b', 2]], delete: ['gone', 'never'] })
      expect(await idsOf(t.store(), t.name())).to.deep.equal(['a', 'b', 'kept'])
    })

    it('lets a set win over a delete of the same id, and the last of repeated sets', async () => {
      const c = t.store().collection<number>(t.name())
      await c.set('x', 0)
      await c.batch({ set: [['x', 1], ['y', 1], ['y', 2]], delete: ['x', 'x'] })
      expect(await c.getMany(['x', 'y'])).to.deep.equal([1, 2])
    })

    it('does nothing for an empty batch', async () => {
      const c = t.store().collection<number>(t.name())
      await c.batch({})
      await c.batch({ set: [], delete: [] })
      expect(await collect(c.entries())).to.deep.equal([])
    })

    it('writes nothing when one value cannot be serialized', async () => {
      const c = t.store().collection<unknown>(t.name())
      await c.set('keep', 1)
      const err = await rejectionOf(c.batch({ set: [['a', 1], ['b', new Map()], ['c', 3]], delete: ['keep'] }))
      expect(err).to.be.instanceOf(TypeError)
      expect(err.message).to.equal(`Cannot store a Map: not a JSON value (collection "${t.name()}", id "b")`)
      expect(await idsOf(t.store(), t.name())).to.deep.equal(['keep'])
    })

    it('writes nothing when the backend fails in the middle of the batch', async function () {
      const harness = t.harness()
      if (harness.installPoison === undefined) {
        // memory cannot fail mid-batch; Redis MULTI/EXEC has no rollback (see redis-backend.ts).
        this.skip()
      }
      await harness.installPoison()
      const c = t.store().collection<number>(t.name())
      await c.batch({ set: [['keep', 1], ['old', 2]] })
      const err = await rejectionOf(c.batch({ set: [['fresh', 3], ['old', 20], ['poison', 4]], delete: ['keep'] }))
      expect(err.message).to.match(/poison/)
      expect(await c.getMany(['keep', 'old', 'fresh', 'poison'])).to.deep.equal([1, 2, undefined, undefined])
      await c.batch({ set: [['after', 5]], delete: ['old'] })
      expect(await idsOf(t.store(), t.name())).to.deep.equal(['after', 'keep'])
    })
  })
}

export function describeLifecycle(t: SuiteContext): void {
  describe('close / reopen', () => {
    it('keeps data across close and reopen where the backend persists', async function () {
      if (!t.harness().persistent) this.skip()
      const c = t.store().collection<unknown>(t.name())
      await c.set('a:1', { bytes: Buffer.from([1, 2]) })
      await c.batch({ set: [['a:2', 'two'], ['b', true]] })
      await t.store().close()
      const again = (await t.reopen()).collection<unknown>(t.name())
      expect(await again.get('a:1')).to.deep.equal({ bytes: Buffer.from([1, 2]) })
      expect((await collect(again.entries('a'))).map(([id]) => id).sort()).to.deep.equal(['a:1', 'a:2'])
      expect(await again.get('b')).to.equal(true)
    })

    it('waits for running operations, then refuses new ones', async () => {
      const store = t.store()
      const c = store.collection<number>(t.name())
      const write = c.set('x', 1)
      const closing = store.close()
      await write
      await closing
      expect((await rejectionOf(c.get('x'))).message).to.equal('Store is closed')
      expect((await rejectionOf(c.batch({ set: [['y', 2]] }))).message).to.equal('Store is closed')
      expect((await rejectionOf(collect(c.entries()))).message).to.equal('Store is closed')
      await store.close()
    })
  })
}
