import { expect } from 'chai'
import {
  digestKey,
  digestsEqual,
  generateKey,
  hashKey,
  isValidMasterKey,
  MANAGED_KEY_PREFIX,
  SESSION_KEY_PREFIX,
} from '../../src/api-keys/hashing.js'

describe('api-keys hashing', () => {
  it('generates wamk_/wask_ keys with 43 base64url characters of randomness', () => {
    const managed = generateKey(MANAGED_KEY_PREFIX)
    const session = generateKey(SESSION_KEY_PREFIX)
    expect(managed).to.match(/^wamk_[A-Za-z0-9_-]{43}$/)
    expect(session).to.match(/^wask_[A-Za-z0-9_-]{43}$/)
    expect(generateKey(MANAGED_KEY_PREFIX)).to.not.equal(managed)
  })

  it('hashes with SHA-256 (hex) and never returns the raw key', () => {
    expect(hashKey('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(digestKey('abc')).to.have.length(32)
    expect(hashKey('wamk_x')).to.not.contain('wamk_')
  })

  it('compares digests in constant time, a length mismatch being false', () => {
    const a = digestKey('one')
    expect(digestsEqual(a, digestKey('one'))).to.equal(true)
    expect(digestsEqual(a, digestKey('two'))).to.equal(false)
    expect(digestsEqual(a, a.subarray(0, 16))).to.equal(false)
    expect(digestsEqual(Buffer.alloc(0), Buffer.alloc(0))).to.equal(true)
  })

  it('accepts a master key of wamk_ and at least 32 non-space characters', () => {
    expect(isValidMasterKey(`wamk_${'a'.repeat(32)}`)).to.equal(true)
    expect(isValidMasterKey(`wamk_${'a'.repeat(31)}`)).to.equal(false)
    expect(isValidMasterKey(`wask_${'a'.repeat(40)}`)).to.equal(false)
    expect(isValidMasterKey(`wamk_${'a'.repeat(20)} ${'a'.repeat(20)}`)).to.equal(false)
    expect(isValidMasterKey(generateKey(MANAGED_KEY_PREFIX))).to.equal(true)
  })
})
