/**
 * The registry of companion devices linked through the wire, with what the server knows about
 * each: its Noise key (to recognize its logins), its Signal registration and the pre-keys it
 * uploaded (handed out one by one when a phone starts a session with it).
 * @module
 */
import type { KeyBundle } from './phone.js'
import type { WireState } from './state.js'
import type { WireDevice } from './wire-world.js'

export interface DeviceRecord {
  phone: string
  deviceId: number
  keyIndex: number
  /** The client's Noise static public key. */
  noiseKey: Uint8Array
  registrationId: number
  identity: Uint8Array
  signedPreKey: { id: number; public: Uint8Array; signature: Uint8Array }
  /** Uploaded one-time pre-keys not handed out yet. */
  preKeys: { id: number; public: Uint8Array }[]
  platform?: string
  label?: string
  linkedAtSec: number
}


const deviceKey = (phone: string, deviceId: number): string => `device:${phone}:${deviceId}`

export const toWireDevice = (d: DeviceRecord): WireDevice => ({
  phone: d.phone,
  deviceId: d.deviceId,
  ...(d.label !== undefined ? { label: d.label } : {}),
  ...(d.platform !== undefined ? { platform: d.platform } : {}),
})

export class Devices {
  constructor(private readonly state: WireState) {}

  get(phone: string, deviceId: number): Promise<DeviceRecord | undefined> {
    return this.state.get<DeviceRecord>(deviceKey(phone, deviceId))
  }

  async ofAccount(phone: string): Promise<DeviceRecord[]> {
    const all = await this.state.list<DeviceRecord>(`device:${phone}`)
    return all.map(([, d]) => d).sort((a, b) => a.deviceId - b.deviceId)
  }

  async all(): Promise<DeviceRecord[]> {
    return (await this.state.list<DeviceRecord>('device')).map(([, d]) => d)
  }

  /** Reserves the next ADV key index of an account (device numbers are the world's). */
  async nextKeyIndex(phone: string): Promise<number> {
    const next = (await this.state.get<number>(`keyindex:${phone}`)) ?? 1
    await this.state.set(`keyindex:${phone}`, next + 1)
    return next
  }

  save(record: DeviceRecord): Promise<void> {
    return this.state.set(deviceKey(record.phone, record.deviceId), record)
  }

  async remove(phone: string, deviceId: number): Promise<void> {
    await this.state.delete(deviceKey(phone, deviceId))
    await this.state.delete(`queue:${phone}:${deviceId}`)
  }

  /** The device's bundle, consuming one uploaded pre-key if any is left. */
  async takeBundle(phone: string, deviceId: number): Promise<KeyBundle | undefined> {
    const d = await this.get(phone, deviceId)
    if (!d) return undefined
    const preKey = d.preKeys.shift()
    await this.save(d)
    return {
      registrationId: d.registrationId,
      identity: d.identity,
      signedPreKey: d.signedPreKey,
      ...(preKey ? { preKey } : {}),
    }
  }
}
