/**
 * AuthStore tests, part of the store conformance suite: Baileys' real creds and every key type
 * must round-trip on every backend.
 */
import { randomBytes } from 'node:crypto'
import { initAuthCreds, proto } from '@whiskeysockets/baileys'
import { expect } from 'chai'
import { AUTH_CREDS_COLLECTION, AUTH_KEYS_COLLECTION, createAuthStore } from '../../../src/store/index.js'
import type { AuthStore } from '../../../src/store/index.js'
import type { SuiteContext } from './store-helpers.js'
import { collect, rejectionOf } from './store-helpers.js'

const keyPair = () => ({ private: randomBytes(32), public: randomBytes(32) })

/** What JSON does to `undefined` properties: they are not stored. */
function withoutUndefined<T>(value: T): T {
  return Object.fromEntries(Object.entries(value as object).filter(([, v]) => v !== undefined)) as T
}

/** A libsignal `SessionRecord.serialize()` object: JSON with base64 strings inside. */
function sessionRecord(): object {
  const b64 = () => randomBytes(33).toString('base64')
  return {
    _sessions: {
      [b64()]: {
        registrationId: 1234,
        currentRatchet: {
          ephemeralKeyPair: { pubKey: b64(), privKey: b64() },
          lastRemoteEphemeralKey: b64(),
          previousCounter: 0,
          rootKey: b64(),
        },
        indexInfo: {
          baseKey: b64(),
          baseKeyType: 1,
          closed: -1,
          used: 1700000000000,
          created: 1700000000000,
          remoteIdentityKey: b64(),
        },
        _chains: { [b64()]: { chainKey: { counter: 3, key: b64() }, chainType: 1, messageKeys: {} } },
      },
    },
    version: 'v1',
  }
}

/** protobufjs makes a `Long` of a decimal string for an int64 field. */
const TIMESTAMP = '1700000000123'
type LongLike = { __isLong__: true; toString(): string }

/** One value of every key type Baileys v7 stores, with ids in Baileys' real shapes. */
function everyKeyType() {
  return {
    'pre-key': { '1': keyPair(), '812': keyPair() },
    session: { '5511999999999.0': sessionRecord(), '123456789012345_1.3': sessionRecord() },
    'sender-key': { '120363025246125888@g.us::5511999999999::0': Buffer.from(JSON.stringify([{ senderKeyId: 1 }])) },
    'sender-key-memory': { '120363025246125888@g.us': { '5511999999999:2@s.whatsapp.net': true } },
    'app-state-sync-key': {
      AAAAAGFi: proto.Message.AppStateSyncKeyData.fromObject({
        keyData: randomBytes(32),
        fingerprint: { rawId: 7, currentIndex: 2, deviceIndexes: [0, 2] },
        timestamp: TIMESTAMP,
      }),
    },
    'app-state-sync-version': {
      regular_high: {
        version: 12,
        hash: randomBytes(128),
        indexValueMap: { 'aW5kZXg=': { valueMac: new Uint8Array(randomBytes(32)) } },
      },
    },
    'lid-mapping': { '5511999999999': '123456789012345', '123456789012345_reverse': '5511999999999' },
    'device-list': { '5511999999999': ['0', '12', '33'] },
    tctoken: {
      '5511999999999@s.whatsapp.net': { token: randomBytes(24), timestamp: '1700000000' },
      __index: { token: Buffer.from(JSON.stringify(['5511999999999@s.whatsapp.net'])) },
    },
    'identity-key': { '5511999999999.0': new Uint8Array(randomBytes(33)), 'a:b:c': randomBytes(33) },
  }
}

/** What each type reads back as (see auth-store.ts: Uint8Array → Buffer, protobuf → toJSON()). */
function expectedBack(written: ReturnType<typeof everyKeyType>): Record<string, Record<string, unknown>> {
  const syncKey = written['app-state-sync-key'].AAAAAGFi
  const version = written['app-state-sync-version'].regular_high
  return {
    ...written,
    'app-state-sync-key': {
      AAAAAGFi: {
        keyData: Buffer.from(syncKey.keyData as Uint8Array).toString('base64'),
        fingerprint: { rawId: 7, currentIndex: 2, deviceIndexes: [0, 2] },
        timestamp: '1700000000123',
      },
    },
    'app-state-sync-version': {
      regular_high: {
        ...version,
        indexValueMap: { 'aW5kZXg=': { valueMac: Buffer.from(version.indexValueMap['aW5kZXg='].valueMac) } },
      },
    },
    'identity-key': Object.fromEntries(Object.entries(written['identity-key']).map(([id, v]) => [id, Buffer.from(v)])),
  }
}

export function describeAuthStoreConformance(t: SuiteContext): void {
  describe('createAuthStore()', () => {
    const auth = (sessionId: string): AuthStore => createAuthStore(t.store(), `${t.name()}-${sessionId}`)

    it('round-trips initAuthCreds() (undefined fields are not stored)', async () => {
      const store = auth('s1')
      expect(await store.readCreds()).to.equal(undefined)
      const creds = initAuthCreds()
      await store.writeCreds(creds)
      const back = (await store.readCreds()) as typeof creds
      expect(back).to.deep.equal(withoutUndefined(creds))
      expect(Buffer.isBuffer(back.noiseKey.private)).to.equal(true)
      expect(Buffer.isBuffer(back.signedPreKey.signature)).to.equal(true)
    })

    it('round-trips linked creds: me, signal identities, and account as its toJSON() form', async () => {
      const store = auth('s1')
      const account = proto.ADVSignedDeviceIdentity.fromObject({
        details: randomBytes(40),
        accountSignatureKey: randomBytes(32),
        accountSignature: randomBytes(64),
        deviceSignature: randomBytes(64),
      })
      const creds = {
        ...initAuthCreds(),
        me: { id: '5511999999999:12@s.whatsapp.net', lid: '123456789012345:12@lid', name: 'Ana' },
        account,
        signalIdentities: [
          { identifier: { name: '5511999999999:12@s.whatsapp.net', deviceId: 0 }, identifierKey: randomBytes(33) },
        ],
        registered: true,
        lastAccountSyncTimestamp: 1700000000,
      }
      await store.writeCreds(creds)
      const back = (await store.readCreds()) as Record<string, unknown>
      expect(back.me).to.deep.equal(creds.me)
      expect(back.signalIdentities).to.deep.equal(creds.signalIdentities)
      expect(back.account).to.deep.equal(account.toJSON())
      const rebuilt = proto.ADVSignedDeviceIdentity.fromObject(back.account as object)
      expect(Buffer.from(proto.ADVSignedDeviceIdentity.encode(rebuilt).finish())).to.deep.equal(
        Buffer.from(proto.ADVSignedDeviceIdentity.encode(account).finish()),
      )
    })

    it('round-trips a value of every key type, in one setKeys call', async () => {
      const store = auth('s1')
      const written = everyKeyType()
      await store.setKeys(written)
      const expected = expectedBack(written)
      for (const [type, values] of Object.entries(expected)) {
        expect(await store.getKeys(type, Object.keys(values)), type).to.deep.equal(values)
      }
    })

    it('gives back app-state-sync-key in a form fromObject() restores, Long included', async () => {
      const store = auth('s1')
      const written = everyKeyType()['app-state-sync-key']
      await store.setKeys({ 'app-state-sync-key': written })
      const { AAAAAGFi: back } = await store.getKeys('app-state-sync-key', ['AAAAAGFi'])
      const restored = proto.Message.AppStateSyncKeyData.fromObject(back as object)
      expect(written.AAAAAGFi.timestamp).to.have.property('__isLong__', true)
      const timestamp = restored.timestamp as unknown as LongLike
      expect(timestamp.__isLong__).to.equal(true)
      expect(timestamp.toString()).to.equal(TIMESTAMP)
      const keyData = Buffer.from(written.AAAAAGFi.keyData as Uint8Array)
      expect(Buffer.from(restored.keyData as Uint8Array)).to.deep.equal(keyData)
      expect(restored.fingerprint?.deviceIndexes).to.deep.equal([0, 2])
    })

    it('returns only the ids found', async () => {
      const store = auth('s1')
      await store.setKeys({ 'pre-key': { '1': keyPair() } })
      expect(Object.keys(await store.getKeys('pre-key', ['1', '2', '3']))).to.deep.equal(['1'])
      expect(await store.getKeys('session', ['1'])).to.deep.equal({})
      expect(await store.getKeys('pre-key', [])).to.deep.equal({})
    })

    it('deletes on null and undefined, writing the rest in the same call', async () => {
      const store = auth('s1')
      await store.setKeys({ 'pre-key': { '1': keyPair(), '2': keyPair(), '3': keyPair() } })
      await store.setKeys({ 'pre-key': { '1': null, '2': undefined, '4': keyPair() }, 'lid-mapping': { x: 'y' } })
      expect(Object.keys(await store.getKeys('pre-key', ['1', '2', '3', '4'])).sort()).to.deep.equal(['3', '4'])
      expect(await store.getKeys('lid-mapping', ['x'])).to.deep.equal({ x: 'y' })
      await store.setKeys({})
      await store.setKeys({ session: undefined } as unknown as Record<string, Record<string, unknown>>)
    })

    it('keeps types apart when ids repeat across types', async () => {
      const store = auth('s1')
      await store.setKeys({ 'lid-mapping': { '1': 'lid' }, 'device-list': { '1': ['0'] } })
      expect(await store.getKeys('lid-mapping', ['1'])).to.deep.equal({ '1': 'lid' })
      expect(await store.getKeys('device-list', ['1'])).to.deep.equal({ '1': ['0'] })
    })

    it('clear() removes the creds and keys of its session only', async () => {
      const [a, b, a1] = [auth('a'), auth('b'), auth('a1')]
      for (const store of [a, b, a1]) {
        await store.writeCreds(initAuthCreds())
        await store.setKeys({ 'pre-key': { '1': keyPair() }, session: { '5511.0': sessionRecord() } })
      }
      await a.clear()
      expect(await a.readCreds()).to.equal(undefined)
      expect(await a.getKeys('pre-key', ['1'])).to.deep.equal({})
      expect(await a.getKeys('session', ['5511.0'])).to.deep.equal({})
      for (const other of [b, a1]) {
        expect(await other.readCreds()).to.not.equal(undefined)
        expect(Object.keys(await other.getKeys('session', ['5511.0']))).to.deep.equal(['5511.0'])
      }
    })

    it('lays out creds and keys as documented', async () => {
      const sessionId = `${t.name()}-layout`
      const store = createAuthStore(t.store(), sessionId)
      await store.writeCreds({ registered: false })
      await store.setKeys({ 'sender-key': { 'g@g.us::5511::0': Buffer.from('k') } })
      expect(await t.store().collection(AUTH_CREDS_COLLECTION).get(sessionId)).to.deep.equal({ registered: false })
      const keys = await collect(t.store().collection(AUTH_KEYS_COLLECTION).entries(sessionId))
      expect(keys).to.deep.equal([[`${sessionId}:sender-key:g@g.us::5511::0`, Buffer.from('k')]])
      await store.clear()
    })

    it('refuses a session id that is empty or holds ":"', () => {
      expect(() => createAuthStore(t.store(), '')).to.throw('Invalid session id "" for an auth store')
      expect(() => createAuthStore(t.store(), 'a:b')).to.throw(
        'Invalid session id "a:b" for an auth store: it must be non-empty and free of ":"',
      )
    })

    it('setKeys writes nothing when one value cannot be stored', async () => {
      const store = auth('s1')
      await store.setKeys({ 'pre-key': { '1': keyPair() } })
      const write = store.setKeys({ 'pre-key': { '1': null, '2': keyPair() }, session: { bad: { n: 1n } } })
      const err = await rejectionOf(write)
      expect(err).to.be.instanceOf(TypeError)
      expect(Object.keys(await store.getKeys('pre-key', ['1', '2']))).to.deep.equal(['1'])
    })
  })
}
