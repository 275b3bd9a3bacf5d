/**
 * The emulated phones. Every account's primary device (device 0) is played by the emulator with
 * its own Signal identity, run by Baileys' `makeLibSignalRepository` over libsignal, with its keys
 * in the emulator state. Phones decrypt what companion devices send to them and encrypt what the
 * world sends to companion devices; they also sign companion identities when linking (ADV).
 * Phones always address companions by their LID device JID, so their sessions stay put.
 * @module
 */
import { initAuthCreds, type SignalDataTypeMap } from '@whiskeysockets/baileys'
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js'
import type { SignalRepositoryWithLIDStore } from '@whiskeysockets/baileys/lib/Types/Signal.js'
import type { WireState } from './state.js'

interface PhoneCreds {
  signedIdentityKey: { public: Uint8Array; private: Uint8Array }
  signedPreKey: { keyPair: { public: Uint8Array; private: Uint8Array }; signature: Uint8Array; keyId: number }
  registrationId: number
}

/** A Signal pre-key bundle as sent in `encrypt` key answers and used to start sessions. */
export interface KeyBundle {
  registrationId: number
  /** 32-byte identity public key. */
  identity: Uint8Array
  signedPreKey: { id: number; public: Uint8Array; signature: Uint8Array }
  preKey?: { id: number; public: Uint8Array }
}

const silent = {
  level: 'silent',
  child: () => silent,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
} as never

/** One emulated phone. Operations run one at a time. */
export class Phone {
  #queue: Promise<unknown> = Promise.resolve()

  private constructor(
    readonly phone: string,
    private readonly creds: PhoneCreds,
    private readonly repo: SignalRepositoryWithLIDStore,
  ) {}

  static async load(phone: string, state: WireState): Promise<Phone> {
    let creds: PhoneCreds | undefined = await state.get<PhoneCreds>(`phone:${phone}`)
    if (!creds) {
      const fresh = initAuthCreds()
      creds = {
        signedIdentityKey: fresh.signedIdentityKey,
        signedPreKey: fresh.signedPreKey,
        registrationId: fresh.registrationId,
      }
      await state.set(`phone:${phone}`, creds)
    }
    const prefix = `phonekey:${phone}`
    const keys = {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const out: Record<string, SignalDataTypeMap[T]> = {}
        for (const id of ids) {
          const value = await state.get<SignalDataTypeMap[T]>(`${prefix}:${type}:${id}`)
          if (value !== undefined && value !== null) out[id] = value
        }
        return out
      },
      async set(data: Record<string, Record<string, unknown> | undefined>) {
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            if (value === null || value === undefined) await state.delete(`${prefix}:${type}:${id}`)
            else await state.set(`${prefix}:${type}:${id}`, value)
          }
        }
      },
      isInTransaction: () => false,
      transaction: <T>(exec: () => Promise<T>) => exec(),
    }
    const repo = makeLibSignalRepository({ creds, keys: keys as never }, silent, async () => undefined)
    return new Phone(phone, creds, repo)
  }

  /** The account's identity public key (32 bytes); also its ADV account signature key. */
  get identityPublic(): Buffer {
    return Buffer.from(this.creds.signedIdentityKey.public)
  }

  get identityPrivate(): Buffer {
    return Buffer.from(this.creds.signedIdentityKey.private)
  }

  /** The phone's own bundle, without a one-time pre-key (clients accept that). */
  bundle(): KeyBundle {
    const spk = this.creds.signedPreKey
    return {
      registrationId: this.creds.registrationId,
      identity: this.identityPublic,
      signedPreKey: { id: spk.keyId, public: spk.keyPair.public, signature: spk.signature },
    }
  }

  /** Starts a session with a companion device from its bundle unless one is open. */
  ensureSession(jid: string, bundle: () => Promise<KeyBundle>): Promise<void> {
    return this.#run(async () => {
      if ((await this.repo.validateSession(jid)).exists) return
      const b = await bundle()
      await this.repo.injectE2ESession({
        jid,
        session: {
          registrationId: b.registrationId,
          identityKey: withKeyType(b.identity),
          signedPreKey: {
            keyId: b.signedPreKey.id,
            publicKey: withKeyType(b.signedPreKey.public),
            signature: b.signedPreKey.signature,
          },
          ...(b.preKey ? { preKey: { keyId: b.preKey.id, publicKey: withKeyType(b.preKey.public) } } : {}),
        },
      })
    })
  }

  hasSession(jid: string): Promise<boolean> {
    return this.#run(async () => (await this.repo.validateSession(jid)).exists)
  }

  encrypt(jid: string, data: Uint8Array): Promise<{ type: 'pkmsg' | 'msg'; ciphertext: Uint8Array }> {
    return this.#run(() => this.repo.encryptMessage({ jid, data }))
  }

  decrypt(jid: string, type: 'pkmsg' | 'msg', ciphertext: Uint8Array): Promise<Uint8Array> {
    return this.#run(() => this.repo.decryptMessage({ jid, type, ciphertext }))
  }

  /** Encrypts a group message with this phone's sender key; also returns the distribution message. */
  encryptGroup(group: string, meId: string, data: Uint8Array) {
    return this.#run(() => this.repo.encryptGroupMessage({ group, meId, data }))
  }

  decryptGroup(group: string, authorJid: string, msg: Uint8Array): Promise<Uint8Array> {
    return this.#run(() => this.repo.decryptGroupMessage({ group, authorJid, msg }))
  }

  processSenderKey(authorJid: string, groupId: string, distribution: Uint8Array): Promise<void> {
    return this.#run(() =>
      this.repo.processSenderKeyDistributionMessage({
        authorJid,
        item: { groupId, axolotlSenderKeyDistributionMessage: distribution },
      }),
    )
  }

  /** Forgets the sessions with these devices (after an unlink). */
  forget(jids: string[]): Promise<void> {
    return this.#run(() => this.repo.deleteSession(jids))
  }

  #run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn)
    this.#queue = next.catch(() => undefined)
    return next
  }
}

const withKeyType = (key: Uint8Array): Uint8Array => (key.length === 33 ? key : Buffer.concat([Buffer.from([5]), key]))

/** Loads phones on demand and keeps them. */
export class Phones {
  readonly #phones = new Map<string, Promise<Phone>>()

  constructor(private readonly state: WireState) {}

  get(phone: string): Promise<Phone> {
    let p = this.#phones.get(phone)
    if (!p) {
      p = Phone.load(phone, this.state)
      this.#phones.set(phone, p)
      p.catch(() => this.#phones.delete(phone))
    }
    return p
  }
}
