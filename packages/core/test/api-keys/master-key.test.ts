import { expect } from 'chai'
import { hashKey } from '../../src/api-keys/hashing.js'
import { resolveMasterKey } from '../../src/api-keys/master-key.js'
import { createMemoryStore } from '../support/memory-store.js'
import { MASTER_KEY } from './helpers.js'

describe('resolveMasterKey(store, given)', () => {
  it('uses a given key, keeping only its hash', async () => {
    const store = createMemoryStore()
    expect(await resolveMasterKey(store, MASTER_KEY)).to.deep.equal({ hash: hashKey(MASTER_KEY) })
    expect(await store.collection('settings').get('master-key')).to.deep.equal({ hash: hashKey(MASTER_KEY) })
  })

  it('generates a key on the first start and keeps it across restarts', async () => {
    const store = createMemoryStore()
    const first = await resolveMasterKey(store, undefined)
    expect(first.generated).to.match(/^wamk_[A-Za-z0-9_-]{43}$/)
    expect(first.hash).to.equal(hashKey(first.generated!))
    expect(await resolveMasterKey(store, undefined)).to.deep.equal({ hash: first.hash })
  })

  it('refuses a malformed given key', async () => {
    const err = await resolveMasterKey(createMemoryStore(), 'wamk_short').catch((e: unknown) => e)
    expect((err as Error).message).to.equal('The admin key must be wamk_ followed by at least 32 characters')
  })
})
