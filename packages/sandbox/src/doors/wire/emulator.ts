/**
 * The WhatsApp-protocol engine: WhatsApp's servers and every account's phone, for real Baileys
 * clients connected over a WebSocket. It links companions (QR or pairing code, `linking.ts`),
 * logs them in, answers their queries (`iq.ts`), decrypts what they send as the recipients'
 * phones (`inbound.ts`) and encrypts what the world sends them (`outbox.ts`). Meaning lives in
 * the {@link WireWorld} it serves.
 * @module
 */
import { proto, unpadRandomMax16 } from '@whiskeysockets/baileys'
import type { WebSocket } from 'ws'
import { silentLogger, systemClock, type Clock, type Logger } from '@switchboard/core'
import { appStateKey, keyShareMessage } from './app-state.js'
import { createCertAuthority, type CertAuthority } from './cert-chain.js'
import { WireConnection, type ConnectionHandler } from './connection.js'
import { newKeyPair, type KeyPair } from './crypto.js'
import { Devices, toWireDevice, type DeviceRecord } from './devices.js'
import { handleClientStanza } from './inbound.js'
import { answerIq } from './iq.js'
import { decodeJid, lidJid } from './jids.js'
import { Linker } from './linking.js'
import type { MediaHost } from './media-host.js'
import { NoiseHandshake } from './noise.js'
import { bytesOf, node, type BinaryNode } from './nodes.js'
import { Outbox, type GroupChange, type MessageDelivery, type ReceiptDelivery } from './outbox.js'
import type { CompanionHello } from './pairing.js'
import { Phones, type Phone } from './phone.js'
import { WireState } from './state.js'
import type { WireAccount, WireChatState, WireDevice, WireWorld } from './wire-world.js'

export type { GroupChange, MessageDelivery, ReceiptDelivery } from './outbox.js'

export interface EmulatorOptions {
  world: WireWorld
  /** Where keys, devices and phone sessions live (memory by default). */
  state?: WireState
  clock?: Clock
  logger?: Logger
  /** QR refs per registration (Baileys shows each for 60 s, then 20 s). @default 6 */
  qrRefs?: number
  /** How long an entered pairing code waits for the companion's request to arrive. @default 2000 */
  codeWaitMs?: number
  /** The media host `media_conn` names (media IQs answer `501` without one). */
  media?: MediaHost
}

const STATE_KEYS = 'server:keys'

type DeviceKey = { phone: string; deviceId: number }

export class WaEmulator implements ConnectionHandler {
  readonly world: WireWorld
  readonly state: WireState
  readonly clock: Clock
  readonly logger: Logger
  readonly devices: Devices
  readonly phones: Phones
  readonly media: MediaHost | undefined
  readonly #authority: CertAuthority
  readonly #staticKey: KeyPair
  readonly #linker: Linker
  readonly #outbox: Outbox
  readonly #connections = new Set<WireConnection>()
  /** Logged-in connections by `phone:device`. */
  readonly #online = new Map<string, WireConnection>()

  private constructor(opts: EmulatorOptions, authority: CertAuthority, staticKey: KeyPair, state: WireState) {
    this.world = opts.world
    this.state = state
    this.clock = opts.clock ?? systemClock
    this.logger = opts.logger ?? silentLogger
    this.devices = new Devices(state)
    this.phones = new Phones(state)
    this.media = opts.media
    this.#authority = authority
    this.#staticKey = staticKey
    this.#linker = new Linker(this, opts.qrRefs ?? 6, opts.codeWaitMs ?? 2000)
    this.#outbox = new Outbox(this)
  }

  /** Loads (or creates and saves) the server keys, so the trust anchor survives restarts. */
  static async create(opts: EmulatorOptions): Promise<WaEmulator> {
    const state = opts.state ?? new WireState()
    let keys = await state.get<{ root: KeyPair; static: KeyPair }>(STATE_KEYS)
    if (!keys) {
      keys = { root: newKeyPair(), static: newKeyPair() }
      await state.set(STATE_KEYS, keys)
    }
    const pair = (k: KeyPair): KeyPair => ({ public: Buffer.from(k.public), private: Buffer.from(k.private) })
    return new WaEmulator(opts, createCertAuthority(pair(keys.root)), pair(keys.static), state)
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
    this.#connections.add(new WireConnection(ws, handshake, this, this.logger))
  }

  // ---- connections ---------------------------------------------------------------------------

  async onPayload(conn: WireConnection, clientStatic: Buffer, payload: proto.ClientPayload): Promise<void> {
    if (payload.devicePairingData) return this.#linker.register(conn, clientStatic, payload.devicePairingData)
    const phone = String(payload.username ?? '')
    const deviceId = payload.device ?? 0
    const device = await this.devices.get(phone, deviceId)
    // A device the server does not know (never linked, or unlinked meanwhile) is logged out.
    if (!device || !Buffer.from(device.noiseKey).equals(clientStatic)) return conn.failure(401)
    const account = await this.world.account(phone)
    if (!account || (this.world.online && !(await this.world.online(toWireDevice(device))))) {
      if (account) await this.#forget(device)
      return conn.failure(401)
    }
    const key = `${phone}:${deviceId}`
    const previous = this.#online.get(key)
    if (previous && previous !== conn) {
      this.#online.delete(key)
      previous.streamError({}, [node('conflict', { type: 'replaced' })])
    }
    conn.context.device = { phone, deviceId } satisfies DeviceKey
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
    const flushed = await this.#outbox.flush(device, conn)
    // Without this, Baileys keeps its events buffered.
    conn.send(node('ib', {}, [node('offline', { count: String(flushed) })]))
  }

  async onNode(conn: WireConnection, stanza: BinaryNode): Promise<void> {
    if (stanza.tag !== 'iq') return handleClientStanza(this, conn, stanza)
    const answer = await answerIq(this, conn, stanza)
    if (answer) conn.send(answer)
  }

  onClose(conn: WireConnection): void {
    this.#connections.delete(conn)
    this.#linker.closed(conn)
    const d = conn.context.device as DeviceKey | undefined
    if (!d) return
    this.#outbox.closed(conn, d)
    if (this.#online.get(`${d.phone}:${d.deviceId}`) !== conn) return
    this.#online.delete(`${d.phone}:${d.deviceId}`)
    void this.devices
      .get(d.phone, d.deviceId)
      .then(async (record) => {
        if (record) await this.world.offline?.(toWireDevice(record))
      })
      .catch((err: unknown) => this.logger.warn({ err, device: d }, 'offline notification failed'))
  }

  /** The logged-in connection of a device, if any. */
  connectionOf(phone: string, deviceId: number): WireConnection | undefined {
    return this.#online.get(`${phone}:${deviceId}`)
  }

  /** Whether a device is connected and logged in now. */
  isOnline(phone: string, deviceId: number): boolean {
    return this.#online.has(`${phone}:${deviceId}`)
  }

  /** Closes every connection (server shutdown). */
  closeAll(): void {
    for (const conn of this.#connections) conn.terminate()
    this.#connections.clear()
    this.#online.clear()
  }

  // ---- linking -------------------------------------------------------------------------------

  /**
   * The account `phone` scans `qr` (the string a Baileys client shows). Resolves once the
   * companion has signed its identity; it then restarts (515) and logs in. `label` is a wish for
   * the device's name (the world decides).
   */
  scan(phone: string, qr: string, label?: string): Promise<WireDevice> {
    return this.#linker.scan(phone, qr, label)
  }

  /** The account `phone` types a pairing code a companion shows (`Invalid or expired pairing code` if wrong). */
  enterPairingCode(phone: string, code: string, label?: string): Promise<WireDevice> {
    return this.#linker.enterPairingCode(phone, code, label)
  }

  /** Whether a companion connected now asked for a pairing code for `phone`. */
  awaitsCode(phone: string): boolean {
    return this.#linker.awaitsCode(phone)
  }

  /** For the IQ layer: a companion asked for a code, or answered the phone's key exchange. */
  companionHello(conn: WireConnection, hello: CompanionHello): void {
    this.#linker.companionHello(conn, hello)
  }

  companionFinish(conn: WireConnection, wrappedBundle: Buffer): void {
    this.#linker.companionFinish(conn, wrappedBundle)
  }

  /** Whether the connection is a companion waiting to be linked. */
  isRegistering(conn: WireConnection): boolean {
    return conn.context.registration !== undefined
  }

  // ---- devices -------------------------------------------------------------------------------

  /** Linked devices, of one account or of all. */
  async linkedDevices(phone?: string): Promise<WireDevice[]> {
    const records = phone === undefined ? await this.devices.all() : await this.devices.ofAccount(phone)
    return records.map(toWireDevice)
  }

  /** The IQ layer captured a pre-key upload; after the first, the phone sends its keys and history. */
  async preKeysUploaded(phone: string, deviceId: number, keys: { id: number; public: Buffer }[], first: boolean): Promise<void> {
    const d = await this.devices.get(phone, deviceId)
    if (!d) return
    d.preKeys.push(...keys)
    await this.devices.save(d)
    if (!first) return
    // What a phone does for a new companion: share the app-state key, then the history.
    await this.#outbox.fromOwnPhone(d, keyShareMessage(await appStateKey(this, phone)))
    await this.#outbox.historyBootstrap(d)
  }

  /** The account unlinks the device from its phone: the device is logged out (401). */
  async unlink(phone: string, deviceId: number): Promise<void> {
    const d = await this.devices.get(phone, deviceId)
    if (!d) return
    await this.#forget(d)
    this.#online.get(`${phone}:${deviceId}`)?.streamError({ code: '401' }, [node('conflict', { type: 'device_removed' })])
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
    // The account's phone drops its session with the device; other phones' sessions are keyed by
    // the device number, which is never reused.
    if (account) await (await this.phones.get(d.phone)).forget([lidJid(account.lid, d.deviceId)])
  }

  /** Drops the device's socket without a word (a network failure); Baileys reconnects. */
  drop(phone: string, deviceId: number): boolean {
    const conn = this.#online.get(`${phone}:${deviceId}`)
    if (!conn) return false
    this.#online.delete(`${phone}:${deviceId}`)
    conn.terminate()
    return true
  }

  // ---- the world's deliveries ----------------------------------------------------------------

  /** Encrypts a message from `from`'s phone to every linked device of `to` (queued when offline). */
  deliverMessage(delivery: MessageDelivery): Promise<void> {
    return this.#outbox.message(delivery)
  }

  /** Tells every linked device of `to` that `from` received, read or played their messages. */
  deliverReceipt(receipt: ReceiptDelivery): Promise<void> {
    return this.#outbox.receipt(receipt)
  }

  /** Tells `to`'s devices that `from` is typing, recording or paused. */
  deliverChatState(to: string, from: string, state: WireChatState): Promise<void> {
    return this.#outbox.chatState(to, from, state)
  }

  /** Tells `to`'s devices whether `from` is online. */
  deliverPresence(to: string, from: string, available: boolean, lastSeenSec?: number): Promise<void> {
    return this.#outbox.presence(to, from, available, lastSeenSec)
  }

  /** Tells `to`'s devices about a change in a group (`w:gp2` notification). */
  deliverGroupChange(to: string, change: GroupChange): Promise<void> {
    return this.#outbox.groupChange(to, change)
  }

  /** The device acknowledged these stanza ids (they will not be sent again). */
  acknowledged(conn: WireConnection, ids: string[]): void {
    this.#outbox.acknowledged(conn, ids)
  }

  // ---- Signal, for the layers ----------------------------------------------------------------

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
    const d = conn.context.device as DeviceKey | undefined
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
}
