import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Curve, initAuthCreds, proto, type SignalDataSet } from '@whiskeysockets/baileys'
import { expect } from 'chai'
import { silentLogger } from '../../../src/kernel/logger.js'
import { loadAuthState, makeSignalKeyStore, SerialSaver, SIGNAL_KEY_TYPES } from '../../../src/network/baileys/auth-state.js'
import type { AuthStore } from '../../../src/network/driver.js'
import { createAuthStore, openStore } from '../../../src/store/index.js'
import type { Store } from '../../../src/store/store.js'
import { memoryAuthStore } from './support/memory-auth-store.js'

/** A sample of every key type, in the shapes Baileys 7 really stores (Longs and Uint8Arrays included). */
function sampleKeys() {
  const appStateKey = proto.Message.AppStateSyncKeyData.decode(
    proto.Message.AppStateSyncKeyData.encode({
      keyData: Buffer.alloc(32, 7),
      fingerprint: { rawId: 123456, currentIndex: 4, deviceIndexes: [0, 12] },
      timestamp: 1769850902123,
    }).finish(),
  )
  return {
    'pre-key': { '1': Curve.generateKeyPair(), '2': Curve.generateKeyPair() },
    session: {
      '88880002222.0': { _sessions: { BbWFjS2V5: { registrationId: 42, currentRatchet: { rootKey: 'cm9vdA==' } } }, version: 'v1' },
    },
    'sender-key': { '120363040000000001@g.us::88880003333::0': Buffer.from(JSON.stringify([{ senderKeyId: 1 }])) },
    'sender-key-memory': { '120363040000000001@g.us': { '88880003333:0@lid': true } },
    'app-state-sync-key': { AAAAAQ: appStateKey },
    'app-state-sync-version': {
      regular_high: { version: 3, hash: Buffer.alloc(128, 1), indexValueMap: { 'aW5kZXg=': { valueMac: new Uint8Array([1, 2, 3]) } } },
    },
    'lid-mapping': { '15550002222': '88880002222', '88880002222_reverse': '15550002222' },
    'device-list': { '15550002222': ['0', '12'] },
    tctoken: { '15550002222@s.whatsapp.net': { token: Buffer.from('tok'), timestamp: '1769850902' }, __index: { token: Buffer.alloc(0), timestamp: '1' } },
    'identity-key': { '88880002222.0': Buffer.alloc(33, 5) },
  }
}

/** Session values are JSON objects in practice, whatever the declared Uint8Array type says. */
const asSet = (data: unknown) => data as SignalDataSet

function authStoreSuite(name: string, make: () => Promise<{ auth: AuthStore; dispose: () => Promise<void> }>) {
  describe(`Baileys auth state over ${name}`, () => {
    let auth: AuthStore
    let dispose: () => Promise<void>
    beforeEach(async () => {
      ;({ auth, dispose } = await make())
    })
    afterEach(() => dispose())

    it('round-trips real initAuthCreds() output, Buffers included', async () => {
      const first = await loadAuthState(auth, silentLogger)
      const creds = first.state.creds
      expect(Buffer.isBuffer(creds.noiseKey.public)).to.equal(true)
      first.saveCreds()
      await first.flush()
      const second = await loadAuthState(auth, silentLogger)
      // Properties holding undefined are not stored (JSON drops them); Baileys reads them as absent.
      const defined = Object.fromEntries(Object.entries(creds).filter(([, v]) => v !== undefined))
      expect(second.state.creds).to.deep.equal(defined)
      expect(Buffer.isBuffer(second.state.creds.signedPreKey.keyPair.private)).to.equal(true)
      expect(Buffer.isBuffer(second.state.creds.signedPreKey.signature)).to.equal(true)
    })

    it('round-trips linked creds with Longs in processed history messages', async () => {
      const first = await loadAuthState(auth, silentLogger)
      Object.assign(first.state.creds, {
        me: { id: '15550001111:12@s.whatsapp.net', lid: '99990001111:12@lid' },
        account: proto.ADVSignedDeviceIdentity.decode(
          proto.ADVSignedDeviceIdentity.encode({ details: Buffer.from([1, 2]), accountSignatureKey: Buffer.alloc(32, 3), accountSignature: Buffer.alloc(64, 4) }).finish(),
        ),
        processedHistoryMessages: [{ key: { remoteJid: '15550002222@s.whatsapp.net', id: 'X' }, messageTimestamp: proto.WebMessageInfo.decode(proto.WebMessageInfo.encode({ key: {}, messageTimestamp: 1769850902 }).finish()).messageTimestamp! }],
      })
      first.saveCreds()
      await first.flush()
      const second = await loadAuthState(auth, silentLogger)
      const creds = second.state.creds
      expect(creds.me?.id).to.equal('15550001111:12@s.whatsapp.net')
      expect(Buffer.isBuffer(creds.account?.accountSignatureKey)).to.equal(true)
      expect(creds.processedHistoryMessages[0]?.messageTimestamp).to.equal(1769850902)
    })

    it('writes and reads back every one of the ten key types in one atomic call', async () => {
      const store = makeSignalKeyStore(auth)
      const keys = sampleKeys()
      expect(Object.keys(keys).sort()).to.deep.equal([...SIGNAL_KEY_TYPES].sort())
      await store.set(asSet(keys))
      for (const type of SIGNAL_KEY_TYPES) {
        const ids = Object.keys(keys[type])
        const got = (await store.get(type, ids)) as Record<string, unknown>
        expect(Object.keys(got).sort(), type).to.deep.equal(ids.sort())
        if (type === 'app-state-sync-key') continue
        if (type === 'app-state-sync-version') {
          const version = got['regular_high'] as { hash: Buffer; indexValueMap: Record<string, { valueMac: Buffer }> }
          expect(Buffer.isBuffer(version.hash)).to.equal(true)
          expect([...version.indexValueMap['aW5kZXg=']!.valueMac]).to.deep.equal([1, 2, 3])
          continue
        }
        expect(got, type).to.deep.equal(Object.fromEntries(Object.entries(keys[type]).map(([id, v]) => [id, normalize(v)])))
      }
      const pre = (await store.get('pre-key', ['1']))['1']!
      expect(Buffer.isBuffer(pre.public) && Buffer.isBuffer(pre.private)).to.equal(true)
    })

    it('gives app-state sync keys back as AppStateSyncKeyData, Long timestamp and bytes intact', async () => {
      const store = makeSignalKeyStore(auth)
      await store.set({ 'app-state-sync-key': sampleKeys()['app-state-sync-key'] })
      const key = (await store.get('app-state-sync-key', ['AAAAAQ']))['AAAAAQ']!
      expect(key).to.be.instanceOf(proto.Message.AppStateSyncKeyData)
      expect(Buffer.from(key.keyData!).equals(Buffer.alloc(32, 7))).to.equal(true)
      expect(Number(key.timestamp)).to.equal(1769850902123)
      expect(key.fingerprint?.deviceIndexes).to.deep.equal([0, 12])
    })

    it('deletes on null and returns only the ids found', async () => {
      const store = makeSignalKeyStore(auth)
      await store.set({ 'pre-key': sampleKeys()['pre-key'] })
      await store.set({ 'pre-key': { '1': null } })
      expect(Object.keys(await store.get('pre-key', ['1', '2', '3']))).to.deep.equal(['2'])
    })

    it('clear() removes creds and keys together', async () => {
      const state = await loadAuthState(auth, silentLogger)
      state.saveCreds()
      await makeSignalKeyStore(auth).set(asSet(sampleKeys()))
      await state.clear()
      expect(await auth.readCreds()).to.equal(undefined)
      expect(await auth.getKeys('session', ['88880002222.0'])).to.deep.equal({})
    })
  })
}

/** What a value looks like after the store: typed arrays as Buffers. */
function normalize(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value)
  if (Array.isArray(value)) return value.map(normalize)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]))
  return value
}

authStoreSuite('the in-memory test store', async () => ({ auth: memoryAuthStore(), dispose: async () => {} }))

authStoreSuite('the SQLite store (createAuthStore)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-baileys-auth-'))
  const store: Store = await openStore(`sqlite://${join(dir, 'auth.sqlite')}`)
  return {
    auth: createAuthStore(store, 'sess1'),
    dispose: async () => {
      await store.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
})

describe('Baileys auth state details', () => {
  it('multi-type writes reach the store as one setKeys call', async () => {
    const auth = memoryAuthStore()
    await makeSignalKeyStore(auth).set(asSet({ session: { a: { x: 1 } }, 'identity-key': { a: Buffer.from([1]) }, 'pre-key': { '9': null } }))
    expect(auth.writes).to.have.length(1)
    expect(Object.keys(auth.writes[0]!)).to.deep.equal(['session', 'identity-key', 'pre-key'])
  })

  it('a failing store write throws (so Baileys retries the transaction)', async () => {
    const auth = memoryAuthStore()
    auth.failWrites = true
    const err = await Promise.resolve(makeSignalKeyStore(auth).set(asSet({ session: { a: { x: 1 } } }))).catch((e: unknown) => e)
    expect((err as Error).message).to.equal('store down')
  })

  it('creds saves run one at a time and coalesce bursts', async () => {
    const auth = memoryAuthStore()
    const state = await loadAuthState(auth, silentLogger)
    auth.holdCreds = true
    for (let i = 0; i < 5; i++) state.saveCreds()
    await new Promise((resolve) => setImmediate(resolve))
    auth.releaseCreds()
    await new Promise((resolve) => setImmediate(resolve))
    auth.releaseCreds()
    await state.flush()
    expect(auth.credsWrites).to.equal(2)
  })

  it('a failed creds save is reported and the next save tries again', async () => {
    const errors: unknown[] = []
    let fail = true
    let saved = 0
    const saver = new SerialSaver(
      async () => {
        if (fail) throw new Error('disk full')
        saved += 1
      },
      (err) => errors.push(err),
    )
    saver.schedule()
    await saver.flush()
    expect((errors[0] as Error).message).to.equal('disk full')
    fail = false
    saver.schedule()
    await saver.flush()
    expect(saved).to.equal(1)
  })

  it('keeps fresh unlinked creds, discards those of an unfinished pairing code', async () => {
    const auth = memoryAuthStore()
    const fresh = initAuthCreds()
    await auth.writeCreds(fresh)
    expect((await loadAuthState(auth, silentLogger)).state.creds.advSecretKey).to.equal(fresh.advSecretKey)
    await auth.writeCreds({ ...fresh, me: { id: '15550001111@s.whatsapp.net', name: '~' } })
    const state = await loadAuthState(auth, silentLogger)
    expect(state.state.creds.advSecretKey).to.not.equal(fresh.advSecretKey)
    expect(auth.clears).to.equal(1)
  })
})
