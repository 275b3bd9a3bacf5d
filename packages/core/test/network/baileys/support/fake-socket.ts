/**
 * A fake Baileys socket: the methods the driver calls (recorded, with scriptable answers) and a
 * real event emitter. Tests play recorded Baileys event payloads into it, exactly as a socket
 * would emit them after talking to WhatsApp.
 */
import { EventEmitter } from 'node:events'
import { Boom } from '@hapi/boom'
import type { AuthenticationCreds, UserFacingSocketConfig, WAMessage } from '@whiskeysockets/baileys'
import type { BaileysSocket, MakeSocket } from '../../../../src/network/baileys/socket.js'
import type { ScriptStep } from './fixtures.js'

type Method = Exclude<keyof BaileysSocket, 'ev' | 'authState' | 'signalRepository' | 'user'>
export interface Call {
  method: string
  args: unknown[]
}

/** A flush of pending promise jobs and immediates (no time passes). */
export const settle = async (rounds = 5): Promise<void> => {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve))
}

export class FakeSocket {
  readonly emitter = new EventEmitter()
  readonly ev: BaileysSocket['ev'] = {
    on: (event, listener) => void this.emitter.on(event, listener as (arg: unknown) => void),
    off: (event, listener) => void this.emitter.off(event, listener as (arg: unknown) => void),
  }
  readonly authState: { creds: AuthenticationCreds }
  readonly calls: Call[] = []
  /** Answers by method name; a function receives the call's arguments. */
  readonly answers: Partial<Record<Method, (...args: any[]) => unknown>> = {}
  readonly lids = new Map<string, string>()
  ended = false
  qrShown = false
  nextId = 1
  readonly signalRepository = {
    lidMapping: {
      getPNForLID: async (lid: string) => [...this.lids.entries()].find(([, l]) => l === lid)?.[0] ?? null,
      getLIDForPN: async (pn: string) => this.lids.get(pn) ?? null,
      storeLIDPNMappings: async (pairs: { lid: string; pn: string }[]) => {
        this.calls.push({ method: 'storeLIDPNMappings', args: [pairs] })
        for (const { lid, pn } of pairs) this.lids.set(pn, lid)
      },
    },
  }

  constructor(readonly config: UserFacingSocketConfig) {
    this.authState = { creds: config.auth.creds }
  }

  get user() {
    return this.authState.creds.me
  }

  /** Emits like Baileys: creds.update merges into the creds first (the socket's own listener). */
  emit(event: string, data: unknown): void {
    if (event === 'creds.update') Object.assign(this.authState.creds, data)
    if (event === 'connection.update' && (data as { qr?: string }).qr) this.qrShown = true
    if (event === 'connection.update' && (data as { connection?: string }).connection === 'close') this.ended = true
    this.emitter.emit(event, data)
  }

  async play(steps: ScriptStep[]): Promise<void> {
    for (const step of steps) {
      this.emit(step.event, step.data)
      await settle()
    }
  }

  /** Ends the socket as Baileys' `end(error)` does. */
  close(error?: Error): void {
    if (this.ended) return
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date(0) } })
  }

  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args)
  }

  async #call(method: Method, args: unknown[], fallback: () => unknown): Promise<any> {
    this.calls.push({ method, args })
    const answer = this.answers[method]
    return answer ? answer(...args) : fallback()
  }

  end = async (error: Error | undefined): Promise<void> => {
    this.calls.push({ method: 'end', args: [error] })
    this.close(error)
  }

  logout = (msg?: string) =>
    this.#call('logout', [msg], async () => {
      await this.end(new Boom(msg ?? 'Intentional Logout', { statusCode: 401 }))
    })

  requestPairingCode = (phone: string, custom?: string) =>
    this.#call('requestPairingCode', [phone, custom], () => {
      if (!this.qrShown || this.ended) throw new Boom('Connection Closed', { statusCode: 428 })
      this.emit('creds.update', { me: { id: `${phone}@s.whatsapp.net`, name: '~' }, pairingCode: 'ABCD1234' })
      return 'ABCD1234'
    })

  sendMessage = (jid: string, content: any, options?: any) =>
    this.#call('sendMessage', [jid, content, options], () => {
      const message: WAMessage = {
        key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `FAKE${this.nextId++}` },
        message: { extendedTextMessage: { text: content?.text ?? '' } },
        messageTimestamp: 1769850930,
        status: 1,
      }
      process.nextTick(() => this.emit('messages.upsert', { type: 'append', messages: [message] }))
      return message
    })

  readMessages = (keys: any[]) => this.#call('readMessages', [keys], () => undefined)
  sendPresenceUpdate = (type: any, jid?: string) => this.#call('sendPresenceUpdate', [type, jid], () => undefined)
  chatModify = (mod: any, jid: string) => this.#call('chatModify', [mod, jid], () => undefined)
  star = (jid: string, messages: any[], star: boolean) => this.#call('star', [jid, messages, star], () => undefined)
  updateMediaMessage = (message: WAMessage) => this.#call('updateMediaMessage', [message], () => message)
  groupCreate = (subject: string, participants: string[]) =>
    this.#call('groupCreate', [subject, participants], () => ({
      id: '120363040000000009@g.us',
      subject,
      owner: '15550001111@s.whatsapp.net',
      participants: participants.map((id) => ({ id, admin: null })),
    }))
  groupMetadata = (jid: string) =>
    this.#call('groupMetadata', [jid], () => {
      throw new Boom('item-not-found', { statusCode: 404 })
    })
  groupUpdateSubject = (jid: string, subject: string) => this.#call('groupUpdateSubject', [jid, subject], () => undefined)
  groupUpdateDescription = (jid: string, desc?: string) => this.#call('groupUpdateDescription', [jid, desc], () => undefined)
  groupParticipantsUpdate = (jid: string, participants: string[], action: any) =>
    this.#call('groupParticipantsUpdate', [jid, participants, action], () => participants.map((p) => ({ status: '200', jid: p, content: {} })))
  groupInviteCode = (jid: string) => this.#call('groupInviteCode', [jid], () => 'InviteCode123')
  groupRevokeInvite = (jid: string) => this.#call('groupRevokeInvite', [jid], () => 'NewInviteCode456')
  groupLeave = (jid: string) => this.#call('groupLeave', [jid], () => undefined)
  updateProfileName = (name: string) => this.#call('updateProfileName', [name], () => undefined)
  updateProfileStatus = (status: string) => this.#call('updateProfileStatus', [status], () => undefined)
  updateProfilePicture = (jid: string, content: any) => this.#call('updateProfilePicture', [jid, content], () => undefined)
  removeProfilePicture = (jid: string) => this.#call('removeProfilePicture', [jid], () => undefined)
  fetchStatus = (...jids: string[]) => this.#call('fetchStatus', jids, () => [])
  profilePictureUrl = (jid: string, type?: string) => this.#call('profilePictureUrl', [jid, type], () => undefined)
  updateBlockStatus = (jid: string, action: string) => this.#call('updateBlockStatus', [jid, action], () => undefined)
  onWhatsApp = (...phones: string[]) =>
    this.#call('onWhatsApp', phones, () => phones.map((p) => ({ jid: `${p.replace(/\D/g, '')}@s.whatsapp.net`, exists: true })))
}

/** A socket factory that keeps every socket it made. */
export function fakeNetwork(onCreate?: (socket: FakeSocket) => void) {
  const sockets: FakeSocket[] = []
  const makeSocket: MakeSocket = (config) => {
    if (net.failNext > 0) {
      net.failNext -= 1
      throw new Error('socket factory broke')
    }
    const socket = new FakeSocket(config)
    sockets.push(socket)
    onCreate?.(socket)
    return socket as unknown as BaileysSocket
  }
  const net = {
    /** The next this many socket creations throw. */
    failNext: 0,
    makeSocket,
    sockets,
    get last(): FakeSocket {
      const socket = sockets[sockets.length - 1]
      if (!socket) throw new Error('no socket was created')
      return socket
    },
  }
  return net
}
