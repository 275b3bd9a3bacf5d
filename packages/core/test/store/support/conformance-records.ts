/**
 * Conformance, part 1: single records (get / set / delete / getMany, names, keys) and values.
 */
import { expect } from 'chai'
import type { SuiteContext } from './store-helpers.js'
import { idsOf, rejectionOf } from './store-helpers.js'

export function describeBasics(t: SuiteContext): void {
  describe('get / set / delete / getMany', () => {
    it('reports its kind', () => {
      expect(t.store().kind).to.equal(t.harness().kind)
    })

    it('returns undefined for a missing id and the value once set', async () => {
      const c = t.store().collection<{ n: number }>(t.name())
      expect(await c.get('x')).to.equal(undefined)
      await c.set('x', { n: 1 })
      expect(await c.get('x')).to.deep.equal({ n: 1 })
    })

    it('overwrites on set', async () => {
      const c = t.store().collection<number>(t.name())
      await c.set('x', 1)
      await c.set('x', 2)
      expect(await c.get('x')).to.equal(2)
    })

    it('deletes, telling whether something was there', async () => {
      const c = t.store().collection<number>(t.name())
      await c.set('x', 1)
      expect(await c.delete('x')).to.equal(true)
      expect(await c.delete('x')).to.equal(false)
      expect(await c.get('x')).to.equal(undefined)
    })

    it('getMany keeps the order of ids, with undefined where absent, repeats included', async () => {
      const c = t.store().collection<string>(t.name())
      await c.set('a', 'A')
      await c.set('c', 'C')
      expect(await c.getMany(['c', 'b', 'a', 'c'])).to.deep.equal(['C', undefined, 'A', 'C'])
      expect(await c.getMany([])).to.deep.equal([])
    })

    it('keeps ids with ":", "@", ".", "_", "-", "%", "*", "?", "[", "\\" and non-ASCII apart', async () => {
      const c = t.store().collection<string>(t.name())
      const ids = ['5511999999999.0', '123_1.3', '1203@g.us::5511::0', 'a-b', 'a%b', 'a*b', 'a?b', 'a[b]', 'a\\b']
      ids.push('é✓', 'A', 'a')
      for (const id of ids) await c.set(id, `v:${id}`)
      expect(await c.getMany(ids)).to.deep.equal(ids.map((id) => `v:${id}`))
      expect(await c.get('a_b')).to.equal(undefined)
    })

    it('keeps collections apart, even when one name starts another', async () => {
      const a = t.store().collection<number>(t.name())
      const b = t.store().collection<number>(`${t.name()}x`)
      await a.set('id', 1)
      await b.set('id', 2)
      expect(await a.get('id')).to.equal(1)
      expect(await idsOf(t.store(), `${t.name()}x`)).to.deep.equal(['id'])
      await a.clear()
      expect(await b.get('id')).to.equal(2)
    })

    it('returns the same collection object for the same name', () => {
      expect(t.store().collection(t.name())).to.equal(t.store().collection(t.name()))
      expect(t.store().collection(t.name()).name).to.equal(t.name())
    })

    it('refuses an empty collection name or one with ":"', () => {
      expect(() => t.store().collection('')).to.throw('Invalid collection name ""')
      expect(() => t.store().collection('a:b')).to.throw(
        'Invalid collection name "a:b": it must be non-empty and free of ":"',
      )
    })

    it('accepts keys up to 1024 characters and refuses longer ones', async () => {
      const c = t.store().collection<number>(t.name())
      const longest = 'k'.repeat(1024 - t.name().length - 1)
      await c.set(longest, 1)
      expect(await c.get(longest)).to.equal(1)
      const err = await rejectionOf(c.set(`${longest}k`, 2))
      expect(err).to.be.instanceOf(RangeError)
      expect(err.message).to.match(/^Store key too long: .* exceeds 1024 characters$/)
      expect(await c.getMany([`${longest}k`])).to.deep.equal([undefined])
    })

    it('serves concurrent reads and writes, batches included', async () => {
      const c = t.store().collection<number>(t.name())
      await c.batch({ set: Array.from({ length: 20 }, (_, i): [string, number] => [`pre${i}`, i]) })
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => [
          c.set(`s${i}`, i),
          c.batch({ set: [[`b${i}`, i], [`b${i}+`, -i]], delete: [`pre${i}`] }),
          c.get(`pre${i}`),
        ]).flat(),
      )
      const ids = await idsOf(t.store(), t.name())
      expect(ids).to.have.length(60)
      expect(ids.filter((id) => id.startsWith('pre'))).to.deep.equal([])
      expect(await c.getMany(['s19', 'b19', 'b19+'])).to.deep.equal([19, 19, -19])
    })
  })
}

export function describeValues(t: SuiteContext): void {
  describe('values', () => {
    it('round-trips JSON values: objects, arrays, numbers, strings, booleans, null', async () => {
      const c = t.store().collection<unknown>(t.name())
      const values: unknown[] = [
        { a: 1, b: [true, false, null], c: { d: 'é✓ 😀', e: -1.5e-7 } },
        [],
        {},
        0,
        -42.25,
        Number.MAX_SAFE_INTEGER,
        '',
        'text with "quotes", \\ and \u0000',
        true,
        false,
        null,
      ]
      for (const [i, value] of values.entries()) await c.set(`v${i}`, value)
      expect(await c.getMany(values.map((_, i) => `v${i}`))).to.deep.equal(values)
    })

    it('round-trips Buffers and Uint8Arrays, nested, as Buffers', async () => {
      const c = t.store().collection<unknown>(t.name())
      const backing = new Uint8Array([9, 9, 1, 2, 3, 9])
      await c.set('x', {
        buf: Buffer.from([0, 255, 128]),
        u8: new Uint8Array([1, 2, 3]),
        view: backing.subarray(2, 5),
        empty: Buffer.alloc(0),
        list: [Buffer.from('a'), { deep: [new Uint8Array([7])] }],
      })
      const back = (await c.get('x')) as Record<string, unknown>
      for (const key of ['buf', 'u8', 'view', 'empty']) expect(Buffer.isBuffer(back[key]), key).to.equal(true)
      expect(back).to.deep.equal({
        buf: Buffer.from([0, 255, 128]),
        u8: Buffer.from([1, 2, 3]),
        view: Buffer.from([1, 2, 3]),
        empty: Buffer.alloc(0),
        list: [Buffer.from('a'), { deep: [Buffer.from([7])] }],
      })
      await c.set('top', Buffer.from('top-level'))
      expect(await c.get('top')).to.deep.equal(Buffer.from('top-level'))
    })

    it('keeps objects whose keys look like the byte marker', async () => {
      const c = t.store().collection<unknown>(t.name())
      const tricky = { $b: 'AQID', $$b: 1, $: { $b: Buffer.from([1]) }, type: 'Buffer', data: 'AQID' }
      await c.set('x', tricky)
      expect(await c.get('x')).to.deep.equal(tricky)
    })

    it('returns copies: changing a read value changes nothing stored', async () => {
      const c = t.store().collection<{ list: number[] }>(t.name())
      const value = { list: [1] }
      await c.set('x', value)
      value.list.push(2)
      const read = (await c.get('x')) as { list: number[] }
      read.list.push(3)
      expect(await c.get('x')).to.deep.equal({ list: [1] })
    })

    it('refuses a value it cannot keep, writing nothing', async () => {
      const c = t.store().collection<unknown>(t.name())
      await c.set('x', 1)
      const err = await rejectionOf(c.set('x', { when: 10n }))
      expect(err).to.be.instanceOf(TypeError)
      expect(err.message).to.equal(`Cannot store a bigint at "when" (collection "${t.name()}", id "x")`)
      expect(await c.get('x')).to.equal(1)
    })
  })
}
