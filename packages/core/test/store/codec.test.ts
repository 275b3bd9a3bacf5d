import { proto } from '@whiskeysockets/baileys'
import { expect } from 'chai'
import { decodeValue, encodeValue } from '../../src/store/codec.js'

const roundTrip = (value: unknown): unknown => decodeValue(encodeValue(value))

describe('store codec', () => {
  it('encodes bytes as {"$b": base64}, at any depth', () => {
    expect(encodeValue(Buffer.from([1, 2, 3]))).to.equal('{"$b":"AQID"}')
    expect(encodeValue({ k: [new Uint8Array([255])] })).to.equal('{"k":[{"$b":"/w=="}]}')
  })

  it('escapes user keys starting with "$" and restores them', () => {
    expect(encodeValue({ $b: 'AQID' })).to.equal('{"$$b":"AQID"}')
    const tricky = { $b: 'AQID', $: 1, $$x: { $b: Buffer.from([1]) } }
    expect(roundTrip(tricky)).to.deep.equal(tricky)
  })

  it('keeps a "__proto__" key as a plain key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "$a": 1}') as object
    const back = roundTrip(value) as Record<string, unknown>
    expect(Object.getPrototypeOf(back)).to.equal(Object.prototype)
    expect(Object.keys(back)).to.deep.equal(['__proto__', '$a'])
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined)
  })

  it('follows JSON for the rest: toJSON, undefined properties, non-finite numbers', () => {
    expect(roundTrip({ at: new Date(Date.UTC(2024, 0, 2)) })).to.deep.equal({ at: '2024-01-02T00:00:00.000Z' })
    expect(roundTrip({ a: undefined, b: 1, f: () => 1 })).to.deep.equal({ b: 1 })
    expect(roundTrip([undefined, NaN, Infinity])).to.deep.equal([null, null, null])
    expect(roundTrip({ toJSON: () => ({ x: 1 }) })).to.deep.equal({ x: 1 })
  })

  it('stores a protobuf message as its toJSON(): bytes as base64, Long as a decimal string', () => {
    const message = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: Buffer.from('abc'),
      timestamp: '1700000000123',
    })
    expect(roundTrip(message)).to.deep.equal({ keyData: 'YWJj', timestamp: '1700000000123' })
  })

  it('stores a bare Long as { low, high, unsigned }', () => {
    const long = proto.Message.AppStateSyncKeyData.fromObject({ timestamp: '1700000000123' }).timestamp
    expect(roundTrip({ long })).to.deep.equal({ long: { low: -807049093, high: 395, unsigned: false } })
  })

  it('refuses what JSON would mangle or drop, with a TypeError naming it', () => {
    const refused: [unknown, string][] = [
      [undefined, 'Cannot store a value of type undefined: not a JSON value'],
      [() => 1, 'Cannot store a function: not a JSON value'],
      [Symbol('s'), 'Cannot store a value of type symbol: not a JSON value'],
      [1n, 'Cannot store a bigint'],
      [{ n: 1n }, 'Cannot store a bigint at "n"'],
      [new Map(), 'Cannot store a Map: not a JSON value'],
      [{ s: new Set([1]) }, 'Cannot store a Set at "s": not a JSON value'],
      [[new ArrayBuffer(2)], 'Cannot store an ArrayBuffer at "0": not a JSON value'],
      [{ i: new Int16Array(2) }, 'Cannot store an Int16Array at "i": not a JSON value'],
    ]
    for (const [value, message] of refused) {
      expect(() => encodeValue(value), message).to.throw(TypeError, message)
    }
  })

  it('refuses circular structures', () => {
    const loop: Record<string, unknown> = {}
    loop.self = loop
    expect(() => encodeValue(loop)).to.throw(TypeError, /circular/i)
  })
})
