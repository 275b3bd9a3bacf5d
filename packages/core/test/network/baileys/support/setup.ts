/**
 * A Baileys driver on fake sockets, a test clock and an in-memory AuthStore, plus helpers to
 * bring a session to `open` from recorded fixtures.
 */
import { initAuthCreds } from '@whiskeysockets/baileys'
import { silentLogger } from '../../../../src/kernel/logger.js'
import { createBaileysDriver, type BaileysDriver } from '../../../../src/network/baileys/driver.js'
import type { BaileysDriverOptions } from '../../../../src/network/baileys/settings.js'
import { toJsonSafe } from '../../../../src/network/baileys/codec.js'
import type { DriverEventName, DriverEvents } from '../../../../src/network/driver.js'
import { createTestClock, type TestClock } from '../../../../src/testing/test-clock.js'
import { fakeNetwork, settle, type FakeSocket } from './fake-socket.js'
import { fixture, type ScriptStep } from './fixtures.js'
import { memoryAuthStore, type MemoryAuthStore } from './memory-auth-store.js'

export const SESSION = 'sess-1'
export const ME = { jid: '15550001111@s.whatsapp.net', phoneNumber: '15550001111', lid: '99990001111@lid', name: 'Test Phone' }
export const ALICE = { pn: '15550002222@s.whatsapp.net', lid: '88880002222@lid' }
export const BOB = { pn: '15550003333@s.whatsapp.net', lid: '88880003333@lid' }
export const GROUP = '120363040000000001@g.us'

const EVENT_NAMES: DriverEventName[] = [
  'connection.update',
  'message.received',
  'message.status',
  'message.reaction',
  'message.revoked',
  'message.edited',
  'group.participants',
  'group.update',
  'call',
  'contacts.upsert',
  'chats.upsert',
  'identity.mapping',
]

export interface Harness {
  clock: TestClock
  driver: BaileysDriver
  net: ReturnType<typeof fakeNetwork>
  auth: MemoryAuthStore
  events: { event: DriverEventName; payload: any }[]
  of<E extends DriverEventName>(event: E): DriverEvents[E][]
  states(): string[]
  /** Lets queued event handling finish. */
  settle(): Promise<void>
}

export function setup(options: Partial<BaileysDriverOptions> = {}, onSocket?: (socket: FakeSocket) => void): Harness {
  const clock = createTestClock()
  const net = fakeNetwork(onSocket)
  const driver = createBaileysDriver({ clock, logger: silentLogger, makeSocket: net.makeSocket, random: () => 0.5, ...options })
  const events: Harness['events'] = []
  for (const event of EVENT_NAMES) driver.on(event, (payload) => events.push({ event, payload }))
  return {
    clock,
    driver,
    net,
    auth: memoryAuthStore(),
    events,
    of: <E extends DriverEventName>(event: E) => events.filter((e) => e.event === event).map((e) => e.payload as DriverEvents[E]),
    states: () => events.filter((e) => e.event === 'connection.update').map((e) => e.payload.state as string),
    settle: async () => {
      await settle()
      await driver.idle(SESSION)
      await settle()
    },
  }
}

/** Creds of a device linked as {@link ME}. */
export function linkedCreds() {
  const creds = initAuthCreds()
  Object.assign(creds, {
    me: { id: '15550001111:12@s.whatsapp.net', lid: '99990001111:12@lid', name: 'Test Phone' },
    account: fixture('connection-qr-link.json').sockets[0][3].data.account,
    platform: 'android',
  })
  return creds
}

/** Opens a session whose auth store already holds linked creds and plays the restore sequence. */
export async function openLinked(h: Harness): Promise<FakeSocket> {
  await h.auth.writeCreds(toJsonSafe(linkedCreds()))
  h.auth.credsWrites = 0
  await h.driver.open(SESSION, { auth: h.auth })
  const socket = h.net.last
  await socket.play(fixture<{ sockets: ScriptStep[][] }>('connection-restore.json').sockets[0]!)
  await h.settle()
  return socket
}
