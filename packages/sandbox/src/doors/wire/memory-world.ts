/**
 * A small in-memory {@link WireWorld}: accounts, inboxes and 1:1 routing, enough to run the
 * protocol engine on its own (its tests, and the engine's reference behaviour). The sandbox
 * world adapter (`sandbox-world.ts`) is what the product runs.
 * @module
 */
import type { proto } from '@whiskeysockets/baileys'
import type { WaEmulator } from './emulator.js'
import { decodeJid, isGroup } from './jids.js'
import type { LinkRequest, WireAccount, WireDevice, WireEvent, WireWorld } from './wire-world.js'

export interface StoredMessage {
  id: string
  from: string
  to: string
  timestampSec: number
  message: proto.IMessage
  status: 'sent' | 'delivered' | 'read'
}

/** A world in memory. Attach the emulator once it exists (`world.emulator = em`). */
export class MemoryWireWorld implements WireWorld {
  emulator: WaEmulator | undefined
  readonly accounts = new Map<string, WireAccount>()
  /** Messages each account received, oldest first. */
  readonly inbox = new Map<string, StoredMessage[]>()
  /** Messages each account sent (through a device or `sendAs`). */
  readonly outbox = new Map<string, StoredMessage[]>()
  readonly events: WireEvent[] = []
  readonly links: { device: WireDevice; state: 'linked' | 'logout' | 'unlink' | 'failed' }[] = []
  readonly #nextDevice = new Map<string, number>()
  readonly presence = new Map<string, boolean>()
  #nextLid = 90000000000001
  #nextId = 1

  addAccount(phone: string, name = `Sandbox ${phone}`, about: string | null = null): WireAccount {
    const account: WireAccount = { phone, lid: String(this.#nextLid++), name, about }
    this.accounts.set(phone, account)
    return account
  }

  async account(phone: string): Promise<WireAccount | undefined> {
    return this.accounts.get(phone)
  }

  async accountByLid(lid: string): Promise<WireAccount | undefined> {
    return [...this.accounts.values()].find((a) => a.lid === lid)
  }

  async link(request: LinkRequest): Promise<WireDevice> {
    const deviceId = (this.#nextDevice.get(request.phone) ?? 1)
    this.#nextDevice.set(request.phone, deviceId + 1)
    const device: WireDevice = {
      phone: request.phone,
      deviceId,
      label: request.label ?? `${request.phone}:${deviceId}`,
      platform: request.platform,
    }
    this.links.push({ device, state: 'linked' })
    return device
  }

  async unlinked(device: WireDevice, reason: 'logout' | 'unlink' | 'failed'): Promise<void> {
    this.links.push({ device, state: reason })
  }

  async presenceOf(phone: string): Promise<{ available: boolean }> {
    return { available: this.presence.get(phone) ?? false }
  }

  async receive(event: WireEvent): Promise<void> {
    this.events.push(event)
    const em = this.#em()
    const from = event.device.phone
    switch (event.type) {
      case 'message': {
        const to = decodeJid(event.to)?.user
        if (!to || isGroup(event.to)) return
        const stored: StoredMessage = { id: event.id, from, to, timestampSec: event.timestampSec, message: event.message, status: 'delivered' }
        this.#push(this.outbox, from, stored)
        this.#push(this.inbox, to, { ...stored })
        await em.deliverMessage({ from, to, id: event.id, timestampSec: event.timestampSec, message: event.message })
        await em.deliverReceipt({ to: from, from: to, ids: [event.id], status: 'delivered', timestampSec: event.timestampSec })
        return
      }
      case 'receipt': {
        const sender = decodeJid(event.chat)?.user
        if (!sender) return
        for (const m of this.outbox.get(sender) ?? []) {
          if (event.ids.includes(m.id) && event.status === 'read') m.status = 'read'
        }
        await em.deliverReceipt({ to: sender, from, ids: event.ids, status: event.status, timestampSec: em.nowSec() })
        return
      }
      case 'presence':
        this.presence.set(from, event.available)
        return
      case 'chatstate': {
        const to = decodeJid(event.to)?.user
        if (to) await em.deliverChatState(to, from, event.state)
        return
      }
    }
  }

  /** The account `from` sends `message` to `to` (both phones); returns the message id. */
  async sendAs(from: string, to: string, message: proto.IMessage): Promise<string> {
    const em = this.#em()
    const id = `SB${String(this.#nextId++).padStart(14, '0')}`
    const timestampSec = em.nowSec()
    const stored: StoredMessage = { id, from, to, timestampSec, message, status: 'sent' }
    this.#push(this.outbox, from, stored)
    this.#push(this.inbox, to, { ...stored })
    await em.deliverMessage({ from, to, id, timestampSec, message })
    return id
  }

  /** The account `reader` reads messages `ids` that `sender` sent it. */
  async read(reader: string, sender: string, ids: string[]): Promise<void> {
    const em = this.#em()
    await em.deliverReceipt({ to: sender, from: reader, ids, status: 'read', timestampSec: em.nowSec() })
  }

  #push(map: Map<string, StoredMessage[]>, phone: string, m: StoredMessage): void {
    const list = map.get(phone) ?? []
    list.push(m)
    map.set(phone, list)
  }

  #em(): WaEmulator {
    if (!this.emulator) throw new Error('attach the emulator first')
    return this.emulator
  }
}
