/**
 * Linking companions: a registration shows QR refs (`pair-device`); the account's phone approves
 * it by scanning the QR or typing a pairing code; the server then pushes the signed
 * `pair-success`, takes the companion's `pair-device-sign` and sends the 515 restart.
 * @module
 */
import { GatewayError } from '@switchboard/core'
import { proto } from '@whiskeysockets/baileys'
import { stanzaId, type WireConnection } from './connection.js'
import { toWireDevice, type DeviceRecord } from './devices.js'
import type { WaEmulator } from './emulator.js'
import { child, node, readUint, S_WHATSAPP_NET } from './nodes.js'
import { finishPairing, newRef, pairSuccess, parseQr, primaryHello, type CompanionHello } from './pairing.js'
import type { LinkRequest, WireAccount, WireDevice } from './wire-world.js'

/** A registration in progress: a companion that shows QR codes and waits to be linked. */
export interface Registration {
  clientStatic: Buffer
  registrationId: number
  identity: Buffer
  signedPreKey: { id: number; public: Buffer; signature: Buffer }
  platform: string
  refs: string[]
  /** Set when the companion asked for a pairing code. */
  hello?: CompanionHello | undefined
  /** Resolves the phone's wait for the companion's `companion_finish`. */
  onFinish?: ((wrappedBundle: Buffer) => void) | undefined
}

type PairingData = NonNullable<proto.IClientPayload['devicePairingData']>

export class Linker {
  /** Registrations by QR ref. */
  readonly #byRef = new Map<string, WireConnection>()
  readonly #registering = new Set<WireConnection>()
  readonly #helloWaiters = new Set<() => void>()

  constructor(
    private readonly em: WaEmulator,
    private readonly qrRefs: number,
    private readonly codeWaitMs: number,
  ) {}

  /** A companion with no account yet: hand it QR refs. */
  async register(conn: WireConnection, clientStatic: Buffer, pairing: PairingData): Promise<void> {
    const props = pairing.deviceProps ? proto.DeviceProps.decode(pairing.deviceProps) : undefined
    const browser = props?.platformType !== undefined && props.platformType !== null ? proto.DeviceProps.PlatformType[props.platformType] : undefined
    const reg: Registration = {
      clientStatic,
      registrationId: readUint(pairing.eRegid ?? undefined),
      identity: Buffer.from(pairing.eIdent ?? []),
      signedPreKey: {
        id: readUint(pairing.eSkeyId ?? undefined),
        public: Buffer.from(pairing.eSkeyVal ?? []),
        signature: Buffer.from(pairing.eSkeySig ?? []),
      },
      platform: [browser, props?.os ? `(${props.os})` : undefined].filter(Boolean).join(' ') || 'unknown',
      refs: Array.from({ length: this.qrRefs }, newRef),
    }
    conn.context.registration = reg
    this.#registering.add(conn)
    for (const ref of reg.refs) this.#byRef.set(ref, conn)
    const refs = reg.refs.map((ref) => node('ref', {}, Buffer.from(ref)))
    await conn.query(node('iq', { type: 'set', from: S_WHATSAPP_NET, xmlns: 'md' }, [node('pair-device', {}, refs)]))
  }

  closed(conn: WireConnection): void {
    this.#registering.delete(conn)
    for (const ref of registrationOf(conn)?.refs ?? []) this.#byRef.delete(ref)
  }

  /** The account scans the string a Baileys client shows as its QR code. */
  async scan(phone: string, qr: string, label?: string): Promise<WireDevice> {
    const account = await this.#account(phone)
    const parsed = parseQr(qr)
    const conn = parsed ? this.#byRef.get(parsed.ref) : undefined
    const reg = conn ? registrationOf(conn) : undefined
    if (!parsed || !conn || !reg || !conn.isOpen || !reg.clientStatic.equals(parsed.noiseKey)) {
      throw new GatewayError('SANDBOX_QR_INVALID')
    }
    return this.#link(conn, reg, account, parsed.advSecret, parsed.identityKey, { method: 'qr', qr, ...(label !== undefined ? { label } : {}) })
  }

  /** Whether a companion connected now asked for a pairing code for `phone`. */
  awaitsCode(phone: string): boolean {
    return this.#asking(phone).length > 0
  }

  /** The companion asked for a pairing code (`companion_hello`). */
  companionHello(conn: WireConnection, hello: CompanionHello): void {
    const reg = registrationOf(conn)
    if (reg) reg.hello = hello
    for (const waiter of [...this.#helloWaiters]) waiter()
  }

  /** The companion answered the phone's notification (`companion_finish`). */
  companionFinish(conn: WireConnection, wrappedBundle: Buffer): void {
    const reg = registrationOf(conn)
    const finish = reg?.onFinish
    if (!reg || !finish) return
    reg.onFinish = undefined
    finish(wrappedBundle)
  }

  /**
   * The account types a pairing code a companion shows: the phone and the companion exchange
   * keys under that code. A wrong code is caught when the companion's key bundle does not open.
   */
  async enterPairingCode(phone: string, code: string, label?: string): Promise<WireDevice> {
    const account = await this.#account(phone)
    const typed = code.replace(/[^0-9A-Za-z]/g, '').toUpperCase()
    const signer = await this.em.phones.get(phone)
    const identity = { public: signer.identityPublic, private: signer.identityPrivate }
    for (const conn of (await this.#waitForHello(phone)).reverse()) {
      const reg = registrationOf(conn)
      if (!reg?.hello) continue
      const hello = await primaryHello(typed, reg.hello, identity.public)
      const finished = new Promise<Buffer | undefined>((resolve) => {
        reg.onFinish = resolve
        void conn.closed.then(() => resolve(undefined))
      })
      conn.send(
        node('notification', { from: S_WHATSAPP_NET, type: 'link_code_companion_reg', id: stanzaId(), t: String(this.em.nowSec()) }, [hello.content]),
      )
      const bundle = await finished
      if (!bundle) continue
      let opened: { companionIdentity: Buffer; advSecret: Buffer }
      try {
        opened = finishPairing(hello, identity, bundle)
      } catch {
        continue
      }
      reg.hello = undefined
      return this.#link(conn, reg, account, opened.advSecret, opened.companionIdentity, {
        method: 'code',
        code: typed,
        ...(label !== undefined ? { label } : {}),
      })
    }
    throw new GatewayError('SANDBOX_CODE_INVALID')
  }

  #asking(phone: string): WireConnection[] {
    return [...this.#registering].filter((c) => c.isOpen && registrationOf(c)?.hello?.phone === phone)
  }

  /** Baileys returns the code before the server has read its hello: give the hello a moment. */
  async #waitForHello(phone: string): Promise<WireConnection[]> {
    if (this.#asking(phone).length) return this.#asking(phone)
    const { clock } = this.em
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clock.clearTimer(timer)
        this.#helloWaiters.delete(waiter)
        resolve()
      }
      const waiter = (): void => {
        if (this.#asking(phone).length) done()
      }
      const timer = clock.setTimer(done, this.codeWaitMs)
      this.#helloWaiters.add(waiter)
    })
    return this.#asking(phone)
  }

  async #link(
    conn: WireConnection,
    reg: Registration,
    account: WireAccount,
    advSecret: Buffer,
    companionIdentity: Buffer,
    request: Omit<LinkRequest, 'phone' | 'platform'>,
  ): Promise<WireDevice> {
    const invalid = request.method === 'code' ? 'SANDBOX_CODE_INVALID' : 'SANDBOX_QR_INVALID'
    if (!companionIdentity.equals(reg.identity)) throw new GatewayError(invalid)
    this.closed(conn)
    conn.context.registration = undefined
    const em = this.em
    const device = await em.world.link({ ...request, phone: account.phone, platform: reg.platform })
    const phone = await em.phones.get(account.phone)
    const keyIndex = await em.devices.nextKeyIndex(account.phone)
    const answer = await conn
      .query(
        pairSuccess({
          phone: account.phone,
          lid: account.lid,
          deviceId: device.deviceId,
          keyIndex,
          account: { public: phone.identityPublic, private: phone.identityPrivate },
          companionIdentity,
          advSecret,
          platform: 'android',
          name: account.name,
          nowSec: em.nowSec(),
        }),
      )
      .catch(() => undefined)
    if (answer?.attrs.type !== 'result' || !child(answer, 'pair-device-sign')) {
      await em.world.unlinked(device, 'failed')
      throw new GatewayError(invalid)
    }
    const record: DeviceRecord = {
      phone: account.phone,
      deviceId: device.deviceId,
      keyIndex,
      noiseKey: reg.clientStatic,
      registrationId: reg.registrationId,
      identity: reg.identity,
      signedPreKey: reg.signedPreKey,
      preKeys: [],
      platform: reg.platform,
      ...(device.label !== undefined ? { label: device.label } : {}),
      linkedAtSec: em.nowSec(),
    }
    await em.devices.save(record)
    conn.streamError({ code: '515' })
    return toWireDevice(record)
  }

  async #account(phone: string): Promise<WireAccount> {
    const account = await this.em.world.account(phone)
    if (!account) throw new GatewayError('SANDBOX_ACCOUNT_NOT_FOUND')
    return account
  }
}

export const registrationOf = (conn: WireConnection): Registration | undefined =>
  conn.context.registration as Registration | undefined
