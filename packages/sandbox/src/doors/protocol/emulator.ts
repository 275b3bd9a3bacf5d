/**
 * The WhatsApp-protocol engine: WhatsApp's servers and every account's phone, for real Baileys
 * clients connected over a WebSocket. It links companions (QR or pairing code), logs them in,
 * answers their queries, decrypts what they send (as the recipients' phones) and encrypts what
 * the world sends them. Meaning lives in the {@link WireWorld} it serves.
 * @module
 */
import { encodeWAMessage, proto, unpadRandomMax16 } from '@whiskeysockets/baileys'
import type { WebSocket } from 'ws'
import { GatewayError, silentLogger, systemClock, type Clock, type Logger } from '@switchboard/core'
import { createCertAuthority, type CertAuthority } from './cert-chain.js'
import { WireConnection, stanzaId, type ConnectionHandler } from './connection.js'
import { newKeyPair, type KeyPair } from './crypto.js'
import { Devices, toWireDevice, type DeviceRecord } from './devices.js'
import { answerIq } from './iq.js'
import { decodeJid, lidJid, pnJid } from './jids.js'
import { NoiseHandshake } from './noise.js'
import { bytesOf, child, node, readUint, S_WHATSAPP_NET, type BinaryNode } from './nodes.js'
import {
  finishPairing,
  newRef,
  pairSuccess,
  parseQr,
  primaryHello,
  type CompanionHello,
} from './pairing.js'
import { Phones, type Phone } from './phone.js'
import { WireState } from './state.js'
import { historyBootstrap } from './history.js'
import { handleClientStanza } from './inbound.js'
import type { WireAccount, WireChatState, WireDevice, WireReceiptStatus, WireWorld } from './wire-world.js'

export interface EmulatorOptions {
  world: WireWorld
  /** Where keys, devices and phone sessions live (memory by default). */
  state?: WireState
  clock?: Clock
  logger?: Logger
  /** QR refs per registration (Baileys shows each for 60 s, then 20 s). Default 6. */
  qrRefs?: number
  /** How long an entered pairing code waits for the companion's request to arrive. Default 2000. */
  codeWaitMs?: number
}

/** A registration in progress: a companion that showed a QR and waits to be linked. */
export interface Registration {
  clientStatic: Buffer
  registrationId: number
  identity: Buffer
  signedPreKey: { id: number; public: Buffer; signature: Buffer }
  platform: string
  refs: string[]
  hello?: CompanionHello | undefined
}

/** Something the world sends to one account's companion devices. */
export interface MessageDelivery {
  /** Sender's phone. */
  from: string
  /** Recipient's phone. */
  to: string
  /** The group, for group messages. */
  group?: string
  id: string
  timestampSec: number
  message: proto.IMessage
  /** Shown as `notify` (the sender's push name). */
  pushName?: string
}

export interface ReceiptDelivery {
  /** Phone of the original sender (whose devices get the receipt). */
  to: string
  /** Phone of the reader. */
  from: string
  group?: string
  ids: string[]
  status: WireReceiptStatus
  timestampSec: number
}

interface QueuedDelivery {
  kind: 'message'
  delivery: Omit<MessageDelivery, 'message'> & { message: Uint8Array }
}

const STATE_KEYS = 'server:keys'

export class WaEmulator implements ConnectionHandler {
  readonly world: WireWorld
  readonly state: WireState
  readonly clock: Clock
  readonly logger: Logger
  readonly devices: Devices
  readonly phones: Phones
  readonly #authority: CertAuthority
  readonly #staticKey: KeyPair
  readonly #qrRefs: number
  readonly #codeWaitMs: number
  readonly #connections = new Set<WireConnection>()
  /** Logged-in connections by `phone:device`. */
  readonly #online = new Map<string, WireConnection>()
  /** Registration connections by QR ref. */
  readonly #byRef = new Map<string, WireConnection>()
  readonly #helloWaiters = new Set<() => void>()
  /** Serializes deliveries per device so Signal ratchets advance in order. */
  readonly #deviceChains = new Map<string, Promise<unknown>>()

  private constructor(opts: EmulatorOptions, authority: CertAuthority, staticKey: KeyPair, state: WireState) {
    this.world = opts.world
    this.state = state
    this.clock = opts.clock ?? systemClock
    this.logger = opts.logger ?? silentLogger
    this.devices = new Devices(state)
    this.phones = new Phones(state)
    this.#authority = authority
    this.#staticKey = staticKey
    this.#qrRefs = opts.qrRefs ?? 6
    this.#codeWaitMs = opts.codeWaitMs ?? 2000
  }

  /** Loads (or creates and saves) the server keys, so the trust anchor survives restarts. */
  static async create(opts: EmulatorOptions): Promise<WaEmulator> {
    const state = opts.state ?? new WireState()
    let keys = await state.get<{ root: KeyPair; static: KeyPair }>(STATE_KEYS)
    if (!keys) {
      keys = { root: newKeyPair(), static: newKeyPair() }
      await state.set(STATE_KEYS, keys)
    }
    const root = { public: Buffer.from(keys.root.public), private: Buffer.from(keys.root.private) }
    const stat = { public: Buffer.from(keys.static.public), private: Buffer.from(keys.static.private) }
    return new WaEmulator(opts, createCertAuthority(root), stat, state)
  }

  /** The root key clients must trust (`WA_CERT_DETAILS.PUBLIC_KEY`). */
  get rootPublicKey(): Buffer {
    return this.#authority.rootPublicKey
  }

  nowSec(): number {
    return Math.floor(this.clock.now() / 1000)
  }

  /** Serves one client WebSocket. */
  accept(ws: WebSocket): void {
    const handshake = new NoiseHandshake(this.#staticKey, this.#authority.chainFor(this.#staticKey.public))
    const conn = new WireConnection(ws, handshake, this, this.logger)
    this.#connections.add(conn)
  }

  // ---- connection lifecycle ------------------------------------------------------------------

  async onPayload(conn: WireConnection, clientStatic: Buffer, payload: proto.ClientPayload): Promise<void> {
    const pairing = payload.devicePairingData
    if (pairing) return this.#register(conn, clientStatic, pairing)
    const phone = String(payload.username ?? '')
    const deviceId = payload.device ?? 0
    const device = await this.devices.get(phone, deviceId)
    if (!device || !Buffer.from(device.noiseKey).equals(clientStatic)) {
      conn.failure(401)
      return
    }
    const account = await this.world.account(phone)
    if (!account) {
      conn.failure(401)
      return
    }
    const key = `${phone}:${deviceId}`
    const previous = this.#online.get(key)
    if (previous && previous !== conn) {
      this.#online.delete(key)
      previous.streamError({}, [node('conflict', { type: 'replaced' })])
    }
    conn.context.device = { phone, deviceId }
    this.#online.set(key, conn)
    conn.send(
      node('success', {
        t: String(this.nowSec()),
        lid: lidJid(account.lid, deviceId),
        display_name: account.name,
        props: '1',
        creation: String(device.linkedAtSec),
        location: 'sandbox',
      }),
    )
    const flushed = await this.#flushQueue(device, conn)
    conn.send(node('ib', {}, [node('offline', { count: String(flushed) })]))
  }

  onNode(conn: WireConnection, stanza: BinaryNode): Promise<void> {
    if (stanza.tag === 'iq') return this.#onIq(conn, stanza)
    return handleClientStanza(this, conn, stanza)
  }

  onClose(conn: WireConnection): void {
    this.#connections.delete(conn)
    const reg = conn.context.registration as Registration | undefined
    for (const ref of reg?.refs ?? []) this.#byRef.delete(ref)
    const d = conn.context.device as { phone: string; deviceId: number } | undefined
    if (!d) return
    if (this.#online.get(`${d.phone}:${d.deviceId}`) === conn) this.#online.delete(`${d.phone}:${d.deviceId}`)
    const inflight = conn.context.inflight as Map<string, QueuedDelivery> | undefined
    if (inflight?.size) {
      const items = [...inflight.values()]
      inflight.clear()
      void this.#onDevice(d, () => this.#requeue(d, items)).catch((err: unknown) =>
        this.logger.warn({ err, device: d }, 'could not requeue deliveries'),
      )
    }
  }

  async #onIq(conn: WireConnection, iq: BinaryNode): Promise<void> {
    const answer = await answerIq(this, conn, iq)
    if (answer) conn.send(answer)
  }

  // ---- linking -------------------------------------------------------------------------------

  async #register(conn: WireConnection, clientStatic: Buffer, pairing: NonNullable<proto.IClientPayload['devicePairingData']>): Promise<void> {
    const props = pairing.deviceProps ? proto.DeviceProps.decode(pairing.deviceProps) : undefined
    const browser = props?.platformType !== undefined && props.platformType !== null
      ? proto.DeviceProps.PlatformType[props.platformType]
      : undefined
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
      refs: Array.from({ length: this.#qrRefs }, newRef),
    }
    conn.context.registration = reg
    for (const ref of reg.refs) this.#byRef.set(ref, conn)
    const refs = reg.refs.map((ref) => node('ref', {}, Buffer.from(ref)))
    await conn.query(node('iq', { type: 'set', from: S_WHATSAPP_NET, xmlns: 'md' }, [node('pair-device', {}, refs)]))
  }

  /**
   * The account `phone` scans `qr` (the string a Baileys client shows). Resolves once the
   * companion has signed its identity; the companion then restarts (515) and logs in.
   */
  async scan(phone: string, qr: string, label?: string): Promise<WireDevice> {
    const account = await this.#accountOrThrow(phone)
    const parsed = parseQr(qr)
    const conn = parsed ? this.#byRef.get(parsed.ref) : undefined
    const reg = conn?.context.registration as Registration | undefined
    if (!parsed || !conn || !reg || !conn.isOpen || !reg.clientStatic.equals(parsed.noiseKey)) {
      throw new GatewayError('SANDBOX_QR_INVALID')
    }
    return this.#link(conn, reg, account, parsed.advSecret, parsed.identityKey, label)
  }

  /** Registers a companion's `companion_hello` (a pairing code was requested for `phone`). */
  companionHello(conn: WireConnection, hello: CompanionHello): void {
    const reg = conn.context.registration as Registration | undefined
    if (reg) reg.hello = hello
    for (const waiter of [...this.#helloWaiters]) waiter()
  }

  /**
   * The account `phone` enters a pairing code shown by a companion. The phone and the companion
   * exchange keys under that code; a wrong code fails to open the companion's key bundle.
   */
  async enterPairingCode(phone: string, code: string, label?: string): Promise<WireDevice> {
    const account = await this.#accountOrThrow(phone)
    const normalized = code.replace(/[^0-9A-Za-z]/g, '').toUpperCase()
    const candidates = await this.#helloFor(phone)
    const phoneSigner = await this.phones.get(phone)
    for (const conn of candidates.reverse()) {
      const reg = conn.context.registration as Registration
      const hello = await primaryHello(normalized, reg.hello!, phoneSigner.identityPublic)
      const finish = this.#awaitCompanionFinish(conn)
      conn.send(
        node('notification', { from: S_WHATSAPP_NET, type: 'link_code_companion_reg', id: stanzaId(), t: String(this.nowSec()) }, [
          hello.content,
        ]),
      )
      const bundle = await finish
      let opened: { companionIdentity: Buffer; advSecret: Buffer }
      try {
        opened = finishPairing(hello, { public: phoneSigner.identityPublic, private: phoneSigner.identityPrivate }, bundle)
      } catch {
        continue
      }
      reg.hello = undefined
      return this.#link(conn, reg, account, opened.advSecret, opened.companionIdentity, label)
    }
    throw new GatewayError('SANDBOX_CODE_INVALID')
  }

  /**
   * Open registrations that asked for a code for `phone`. The companion's hello may still be in
   * flight when the code is typed (Baileys returns the code before the server has read it), so
   * wait a moment for one.
   */
  async #helloFor(phone: string): Promise<WireConnection[]> {
    const find = () =>
      [...this.#connections].filter((c) => {
        const reg = c.context.registration as Registration | undefined
        return c.isOpen && reg?.hello?.phone === phone
      })
    if (find().length) return find()
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.clock.clearTimeout(timer)
        this.#helloWaiters.delete(waiter)
        resolve()
      }
      const waiter = (): void => {
        if (find().length) done()
      }
      const timer = this.clock.setTimeout(done, this.#codeWaitMs)
      this.#helloWaiters.add(waiter)
    })
    return find()
  }

  #awaitCompanionFinish(conn: WireConnection): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      conn.context.onCompanionFinish = resolve
      conn.context.onCompanionFinishFailed = reject
    })
  }

  async #link(
    conn: WireConnection,
    reg: Registration,
    account: WireAccount,
    advSecret: Buffer,
    companionIdentity: Buffer,
    label: string | undefined,
  ): Promise<WireDevice> {
    if (!companionIdentity.equals(reg.identity)) throw new GatewayError('SANDBOX_QR_INVALID')
    for (const ref of reg.refs) this.#byRef.delete(ref)
    reg.refs = []
    const phone = await this.phones.get(account.phone)
    const { deviceId, keyIndex } = await this.devices.allocate(account.phone)
    const answer = await conn.query(
      pairSuccess({
        phone: account.phone,
        lid: account.lid,
        deviceId,
        keyIndex,
        account: { public: phone.identityPublic, private: phone.identityPrivate },
        companionIdentity,
        advSecret,
        platform: 'android',
        name: account.name,
        nowSec: this.nowSec(),
      }),
    )
    if (answer.attrs.type !== 'result' || !child(answer, 'pair-device-sign')) throw new GatewayError('SANDBOX_QR_INVALID')
    const record: DeviceRecord = {
      phone: account.phone,
      deviceId,
      keyIndex,
      noiseKey: reg.clientStatic,
      registrationId: reg.registrationId,
      identity: reg.identity,
      signedPreKey: reg.signedPreKey,
      preKeys: [],
      platform: reg.platform,
      ...(label !== undefined ? { label } : {}),
      linkedAtSec: this.nowSec(),
    }
    await this.devices.save(record)
    conn.context.registration = undefined
    conn.streamError({ code: '515' })
    const device = toWireDevice(record)
    await this.world.linked(device)
    return device
  }

  async #accountOrThrow(phone: string): Promise<WireAccount> {
    const account = await this.world.account(phone)
    if (!account) throw new GatewayError('SANDBOX_ACCOUNT_NOT_FOUND')
    return account
  }

  // ---- devices -------------------------------------------------------------------------------

  /** Linked devices, of one account or of all. */
  async linkedDevices(phone?: string): Promise<WireDevice[]> {
    const records = phone === undefined ? await this.devices.all() : await this.devices.ofAccount(phone)
    return records.map(toWireDevice)
  }

  /** Whether a device is connected and logged in now. */
  isOnline(phone: string, deviceId: number): boolean {
    return this.#online.has(`${phone}:${deviceId}`)
  }

  /** Called by the IQ layer when a device uploads pre-keys. */
  async preKeysUploaded(phone: string, deviceId: number, keys: { id: number; public: Buffer }[], first: boolean): Promise<void> {
    const d = await this.devices.get(phone, deviceId)
    if (!d) return
    d.preKeys.push(...keys)
    await this.devices.save(d)
    if (first) await this.#sendHistoryBootstrap(d)
  }

  /** The account unlinks the device from its phone: the device is logged out (401). */
  async unlink(phone: string, deviceId: number): Promise<void> {
    const d = await this.devices.get(phone, deviceId)
    if (!d) return
    await this.#forget(d)
    const conn = this.#online.get(`${phone}:${deviceId}`)
    conn?.streamError({ code: '401' }, [node('conflict', { type: 'device_removed' })])
    await this.world.unlinked(toWireDevice(d), 'unlink')
  }

  /** The device logged itself out (`remove-companion-device`). */
  async loggedOut(phone: string, deviceId: number): Promise<void> {
    const d = await this.devices.get(phone, deviceId)
    if (!d) return
    await this.#forget(d)
    await this.world.unlinked(toWireDevice(d), 'logout')
  }

  async #forget(d: DeviceRecord): Promise<void> {
    const account = await this.world.account(d.phone)
    await this.devices.remove(d.phone, d.deviceId)
    if (account) {
      // Every phone that talked to this device drops its session; a later link starts afresh.
      const phone = await this.phones.get(d.phone)
      await phone.forget([lidJid(account.lid, d.deviceId)])
    }
  }

  /** Drops the device's socket without a word (a network failure); the client reconnects. */
  drop(phone: string, deviceId: number): boolean {
    const conn = this.#online.get(`${phone}:${deviceId}`)
    if (!conn) return false
    this.#online.delete(`${phone}:${deviceId}`)
    conn.terminate()
    return true
  }

  /** Closes every connection (server shutdown). */
  closeAll(): void {
    for (const conn of this.#connections) conn.terminate()
    this.#connections.clear()
    this.#online.clear()
    this.#byRef.clear()
  }

  // ---- deliveries ----------------------------------------------------------------------------

  /** Encrypts a message from `from`'s phone to every linked device of `to` (queued when offline). */
  async deliverMessage(delivery: MessageDelivery): Promise<void> {
    const targets = await this.devices.ofAccount(delivery.to)
    const bytes = encodeWAMessage(delivery.message)
    await Promise.all(
      targets.map((d) => this.#onDevice(d, () => this.#deliverTo(d, { kind: 'message', delivery: { ...delivery, message: bytes } }))),
    )
  }

  /** Tells every linked device of `to` that `from` received or read its messages. */
  async deliverReceipt(r: ReceiptDelivery): Promise<void> {
    const [targets, reader] = await Promise.all([this.devices.ofAccount(r.to), this.world.account(r.from)])
    if (!reader) return
    const [first, ...rest] = r.ids
    if (first === undefined) return
    for (const d of targets) {
      const stanza = node(
        'receipt',
        r.group
          ? { from: r.group, participant: pnJid(r.from), id: first, t: String(r.timestampSec), type: receiptType(r.status) }
          : { from: pnJid(r.from), id: first, t: String(r.timestampSec), type: receiptType(r.status) },
        rest.length ? [node('list', {}, rest.map((id) => node('item', { id })))] : undefined,
      )
      this.#online.get(`${d.phone}:${d.deviceId}`)?.send(stanza)
    }
  }

  /** Tells `to`'s devices that `from` is typing, recording or paused. */
  async deliverChatState(to: string, from: string, state: WireChatState): Promise<void> {
    for (const d of await this.devices.ofAccount(to)) {
      this.#online
        .get(`${d.phone}:${d.deviceId}`)
        ?.send(node('chatstate', { from: pnJid(from) }, [state === 'recording' ? node('composing', { media: 'audio' }) : node(state)]))
    }
  }

  /** Tells `to`'s devices whether `from` is online. */
  async deliverPresence(to: string, from: string, available: boolean, lastSeenSec?: number): Promise<void> {
    for (const d of await this.devices.ofAccount(to)) {
      this.#online.get(`${d.phone}:${d.deviceId}`)?.send(presenceNode(from, available, lastSeenSec))
    }
  }

  /** Sends a stanza to one logged-in device (used by the IQ and inbound layers). */
  sendTo(phone: string, deviceId: number, stanza: BinaryNode): boolean {
    const conn = this.#online.get(`${phone}:${deviceId}`)
    conn?.send(stanza)
    return !!conn
  }

  #onDevice<T>(d: { phone: string; deviceId: number }, fn: () => Promise<T>): Promise<T> {
    const key = `${d.phone}:${d.deviceId}`
    const prev = this.#deviceChains.get(key) ?? Promise.resolve()
    const next = prev.then(fn, fn)
    this.#deviceChains.set(key, next.catch(() => undefined))
    return next
  }

  async #deliverTo(d: DeviceRecord, item: QueuedDelivery): Promise<void> {
    const conn = this.#online.get(`${d.phone}:${d.deviceId}`)
    if (!conn) {
      const queue = (await this.state.get<QueuedDelivery[]>(`queue:${d.phone}:${d.deviceId}`)) ?? []
      queue.push(item)
      await this.state.set(`queue:${d.phone}:${d.deviceId}`, queue)
      return
    }
    this.#track(conn, item)
    conn.send(await this.#messageStanza(d, item.delivery, false))
  }

  /** Remembers a delivery until the device acknowledges it; a closed socket puts it back in the queue. */
  #track(conn: WireConnection, item: QueuedDelivery): void {
    const inflight = (conn.context.inflight ??= new Map<string, QueuedDelivery>()) as Map<string, QueuedDelivery>
    inflight.set(item.delivery.id, item)
  }

  /** The device acknowledged (acked, received or read) these stanza ids. */
  acknowledged(conn: WireConnection, ids: string[]): void {
    const inflight = conn.context.inflight as Map<string, QueuedDelivery> | undefined
    for (const id of ids) inflight?.delete(id)
  }

  async #requeue(d: { phone: string; deviceId: number }, items: QueuedDelivery[]): Promise<void> {
    const key = `queue:${d.phone}:${d.deviceId}`
    const queue = (await this.state.get<QueuedDelivery[]>(key)) ?? []
    await this.state.set(key, [...items, ...queue])
  }

  async #flushQueue(d: DeviceRecord, conn: WireConnection): Promise<number> {
    return this.#onDevice(d, async () => {
      const queue = (await this.state.get<QueuedDelivery[]>(`queue:${d.phone}:${d.deviceId}`)) ?? []
      if (!queue.length) return 0
      await this.state.delete(`queue:${d.phone}:${d.deviceId}`)
      for (const item of queue) {
        this.#track(conn, item)
        conn.send(await this.#messageStanza(d, item.delivery, true))
      }
      return queue.length
    })
  }

  async #messageStanza(d: DeviceRecord, m: QueuedDelivery['delivery'], offline: boolean): Promise<BinaryNode> {
    const [sender, target] = await Promise.all([this.world.account(m.from), this.world.account(d.phone)])
    if (!sender || !target) throw new Error(`unknown account in delivery ${m.from} -> ${d.phone}`)
    const phone = await this.phones.get(m.from)
    const enc = await this.encryptFor(phone, target, d, m.message)
    const content: BinaryNode[] = [enc]
    const attrs: Record<string, string | undefined> = m.group
      ? { from: m.group, participant: pnJid(m.from), participant_lid: lidJid(sender.lid) }
      : { from: pnJid(m.from), sender_lid: lidJid(sender.lid) }
    return node(
      'message',
      {
        ...attrs,
        id: m.id,
        t: String(m.timestampSec),
        type: messageType(proto.Message.decode(unpadRandomMax16(m.message))),
        notify: m.pushName ?? sender.name,
        offline: offline ? '1' : undefined,
      },
      content,
    )
  }

  /** Encrypts `bytes` (already padded) from a phone to a companion device: an `<enc>` node. */
  async encryptFor(phone: Phone, target: WireAccount, d: DeviceRecord, bytes: Uint8Array): Promise<BinaryNode> {
    const jid = lidJid(target.lid, d.deviceId)
    await phone.ensureSession(jid, async () => {
      const bundle = await this.devices.takeBundle(d.phone, d.deviceId)
      if (!bundle) throw new Error(`device ${d.phone}:${d.deviceId} is gone`)
      return bundle
    })
    const { type, ciphertext } = await phone.encrypt(jid, bytes)
    return node('enc', { v: '2', type }, Buffer.from(ciphertext))
  }

  /** The phone sends its own companion a protocol message (history sync, app-state keys, …). */
  async sendFromOwnPhone(d: DeviceRecord, message: proto.IMessage): Promise<void> {
    await this.#onDevice(d, async () => {
      const account = await this.world.account(d.phone)
      const conn = this.#online.get(`${d.phone}:${d.deviceId}`)
      if (!account || !conn) return
      const phone = await this.phones.get(d.phone)
      const enc = await this.encryptFor(phone, account, d, encodeWAMessage(message))
      conn.send(
        node('message', { from: pnJid(d.phone), id: stanzaId(), t: String(this.nowSec()), type: 'text', category: 'peer' }, [enc]),
      )
    })
  }

  async #sendHistoryBootstrap(d: DeviceRecord): Promise<void> {
    const account = await this.world.account(d.phone)
    if (!account) return
    await this.sendFromOwnPhone(d, await historyBootstrap(account, this.nowSec()))
  }

  /** Decrypts a companion's `<enc>` to one of the phones. */
  async decryptFrom(phone: Phone, sender: { lid: string; deviceId: number }, enc: BinaryNode): Promise<proto.IMessage | undefined> {
    const type = enc.attrs.type
    const bytes = bytesOf(enc)
    if ((type !== 'pkmsg' && type !== 'msg') || !bytes) return undefined
    const plain = await phone.decrypt(lidJid(sender.lid, sender.deviceId), type, bytes)
    return proto.Message.decode(unpadRandomMax16(plain))
  }

  /** The account and device of a logged-in connection. */
  async deviceOf(conn: WireConnection): Promise<{ account: WireAccount; device: DeviceRecord } | undefined> {
    const d = conn.context.device as { phone: string; deviceId: number } | undefined
    if (!d) return undefined
    const [account, device] = await Promise.all([this.world.account(d.phone), this.devices.get(d.phone, d.deviceId)])
    return account && device ? { account, device } : undefined
  }

  /** An account from a PN or LID user JID. */
  async accountOfJid(jid: string | undefined): Promise<WireAccount | undefined> {
    const decoded = decodeJid(jid)
    if (!decoded) return undefined
    if (decoded.server === 'lid') return this.world.accountByLid(decoded.user)
    if (decoded.server === 's.whatsapp.net' || decoded.server === 'c.us') return this.world.account(decoded.user)
    return undefined
  }

  /** Registered connection awaiting a link, for the IQ layer. */
  registrationOf(conn: WireConnection): Registration | undefined {
    return conn.context.registration as Registration | undefined
  }
}

export function presenceNode(from: string, available: boolean, lastSeenSec?: number): BinaryNode {
  return node('presence', {
    from: pnJid(from),
    type: available ? 'available' : 'unavailable',
    last: !available && lastSeenSec !== undefined ? String(lastSeenSec) : undefined,
  })
}

const receiptType = (status: WireReceiptStatus): string | undefined =>
  status === 'delivered' ? undefined : status

function messageType(m: proto.IMessage): string {
  if (m.reactionMessage) return 'reaction'
  if (m.pollCreationMessage || m.pollCreationMessageV3 || m.pollUpdateMessage) return 'poll'
  if (m.imageMessage || m.videoMessage || m.audioMessage || m.documentMessage || m.stickerMessage) return 'media'
  return 'text'
}
