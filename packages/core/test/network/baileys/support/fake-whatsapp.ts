/**
 * "The other side of the network" for the driver contract on fake sockets: a tiny WhatsApp that
 * answers the socket calls the driver makes and emits the Baileys events a real server and phone
 * would cause (QR and pairing, 515 restart, LID-addressed messages, receipts, reactions, v7 group
 * participant objects, offline delivery, drops and unlinks).
 */
import { Boom } from '@hapi/boom'
import type { GroupMetadata, WAMessage } from '@whiskeysockets/baileys'
import type { Logger } from '../../../../src/kernel/logger.js'
import type { HarnessPeer, PeerMessage } from '../../../../src/testing/driver-contract.js'
import type { TestClock } from '../../../../src/testing/test-clock.js'
import { FakeSocket, settle } from './fake-socket.js'

interface Account {
  phone: string
  jid: string
  lid: string
  name: string
  about: string | null
  inbox: PeerMessage[]
  presences: { from: string; state: string }[]
}

interface Group {
  id: string
  subject: string
  members: Map<string, 'superadmin' | 'admin' | null>
}

interface Link {
  linked: boolean
  offline: WAMessage[]
}

/** A silent logger whose children remember their bindings (the world reads the session id from them). */
export function bindingLogger(bindings: Record<string, unknown> = {}): Logger & { bindings: Record<string, unknown> } {
  const noop = () => {}
  return {
    bindings,
    level: 'silent',
    trace: noop,
    debug: noop,
    info: noop,
    warn: noop,
    error: noop,
    fatal: noop,
    child: (more) => bindingLogger({ ...bindings, ...more }),
  }
}

const ACCOUNT_DETAILS = { details: Buffer.from([8, 1]), accountSignatureKey: Buffer.alloc(32, 1), accountSignature: Buffer.alloc(64, 2) }

export class FakeWhatsApp {
  readonly accounts = new Map<string, Account>()
  readonly groups = new Map<string, Group>()
  readonly links = new Map<string, Link>()
  readonly live = new Map<string, FakeSocket>()
  readonly open = new Set<FakeSocket>()
  readonly #qrs = new Map<string, FakeSocket>()
  readonly #codes = new Map<string, FakeSocket>()
  #n = 0

  constructor(
    private readonly clock: TestClock,
    readonly me: string,
    peers: string[],
  ) {
    for (const phone of [me, ...peers]) this.#account(phone)
  }

  get meAccount(): Account {
    return this.accounts.get(this.me)!
  }

  readonly makeSocket = (config: ConstructorParameters<typeof FakeSocket>[0]) => {
    const socket = new FakeSocket(config)
    const sessionId = String((config.logger as unknown as { bindings?: Record<string, unknown> }).bindings?.['sessionId'])
    this.#wire(socket, sessionId)
    return socket as never
  }

  peer(phone: string): HarnessPeer {
    const account = this.accounts.get(phone)!
    return {
      phone,
      jid: account.jid,
      send: async (to, text, options) => this.#peerSend(account, to, text, options?.quotedMessageId),
      inbox: async () => account.inbox.map((m) => ({ ...m, ...(m.reactions ? { reactions: [...m.reactions] } : {}) })),
      read: async (_chatId, ids) => {
        for (const m of account.inbox) if (ids.includes(m.id)) m.status = 'read'
        this.#toMe((socket) => socket.emit('messages.update', ids.map((id) => ({ key: this.#keyFrom(account, id, true), update: { status: 4 } }))))
      },
      react: async (_chatId, messageId, emoji) => {
        const reaction = { key: this.#keyFrom(account, `R${++this.#n}`, false), text: emoji, senderTimestampMs: this.clock.now() }
        this.#toMe((socket) => socket.emit('messages.reaction', [{ key: { remoteJid: account.lid, fromMe: true, id: messageId }, reaction }]))
      },
      presences: async () => [...account.presences],
    }
  }

  async waitFor<T>(what: string, find: () => T | undefined): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const found = find()
      if (found !== undefined) return found
      await settle(1)
    }
    throw new Error(`fake WhatsApp: timed out waiting for ${what}`)
  }

  qrOf(sessionId: string): string | undefined {
    return [...this.#qrs.entries()].find(([, s]) => s === this.live.get(sessionId) && !s.ended)?.[0]
  }

  async scan(qr: string): Promise<void> {
    const socket = this.#qrs.get(qr)
    if (!socket || socket.ended) throw new Error('fake WhatsApp: unknown or expired QR')
    this.#pair(socket)
  }

  async enterCode(code: string): Promise<void> {
    const socket = this.#codes.get(code)
    if (!socket || socket.ended) throw new Error('fake WhatsApp: unknown or expired pairing code')
    socket.emit('creds.update', { registered: true })
    this.#pair(socket)
  }

  drop(sessionId: string): void {
    this.live.get(sessionId)?.close(new Boom('Connection Terminated', { statusCode: 428 }))
  }

  unlink(sessionId: string): void {
    const link = this.links.get(sessionId)
    if (link) link.linked = false
    this.live.get(sessionId)?.close(new Boom('Connection Failure', { statusCode: 401 }))
  }

  #account(phone: string): Account {
    const account: Account = {
      phone,
      jid: `${phone}@s.whatsapp.net`,
      lid: `9${phone.slice(1)}@lid`,
      name: `Account ${phone}`,
      about: null,
      inbox: [],
      presences: [],
    }
    this.accounts.set(phone, account)
    return account
  }

  #sessionOf(socket: FakeSocket): string | undefined {
    return [...this.live.entries()].find(([, s]) => s === socket)?.[0]
  }

  #pair(socket: FakeSocket): void {
    const sessionId = this.#sessionOf(socket)!
    const me = this.meAccount
    socket.emit('creds.update', {
      me: { id: `${me.phone}:7@s.whatsapp.net`, lid: `${me.lid.split('@')[0]}:7@lid` },
      account: ACCOUNT_DETAILS,
      platform: 'android',
    })
    socket.emit('connection.update', { isNewLogin: true })
    this.links.set(sessionId, { linked: true, offline: this.links.get(sessionId)?.offline ?? [] })
    socket.close(new Boom('Stream Errored (restart required)', { statusCode: 515 }))
  }

  #wire(socket: FakeSocket, sessionId: string): void {
    this.live.set(sessionId, socket)
    socket.emitter.on('connection.update', (u: { connection?: string }) => {
      if (u.connection === 'open') this.open.add(socket)
      if (u.connection === 'close') this.open.delete(socket)
    })
    const me = this.meAccount
    const creds = socket.authState.creds
    for (const account of this.accounts.values()) socket.lids.set(account.jid, account.lid)
    const a = socket.answers
    a.requestPairingCode = () => {
      if (!socket.qrShown || socket.ended) throw new Boom('Connection Closed', { statusCode: 428 })
      const code = `CODE${String(++this.#n).padStart(4, '0')}`
      this.#codes.set(code, socket)
      socket.emit('creds.update', { me: { id: `${me.phone}@s.whatsapp.net`, name: '~' } })
      return code
    }
    a.logout = async () => {
      const link = this.links.get(sessionId)
      if (link) link.linked = false
      await socket.end(new Boom('Intentional Logout', { statusCode: 401 }))
    }
    a.sendMessage = (jid: string, content: Record<string, any>, options?: { messageId?: string; quoted?: WAMessage }) =>
      this.#fromMe(socket, jid, content, options)
    a.sendPresenceUpdate = (state: string, jid?: string) => {
      const account = [...this.accounts.values()].find((x) => x.jid === jid)
      if (account) account.presences = [...account.presences.filter((p) => p.from !== me.jid), { from: me.jid, state }]
    }
    a.onWhatsApp = (...phones: string[]) =>
      phones.filter((p) => this.accounts.has(p.replace(/\D/g, ''))).map((p) => ({ jid: `${p.replace(/\D/g, '')}@s.whatsapp.net`, exists: true }))
    a.groupCreate = (subject: string, participants: string[]) => {
      const group: Group = { id: `12036304${String(++this.#n).padStart(10, '0')}@g.us`, subject, members: new Map([[me.phone, 'superadmin']]) }
      for (const jid of participants) group.members.set(jid.split('@')[0]!, null)
      this.groups.set(group.id, group)
      return this.#metadata(group)
    }
    a.groupMetadata = (jid: string) => {
      const group = this.groups.get(jid)
      if (!group) throw new Boom('item-not-found', { statusCode: 404 })
      return this.#metadata(group)
    }
    a.groupParticipantsUpdate = (jid: string, participants: string[], action: 'add' | 'remove' | 'promote' | 'demote') => {
      const group = this.groups.get(jid)
      if (!group) throw new Boom('item-not-found', { statusCode: 404 })
      for (const p of participants) {
        const phone = p.split('@')[0]!
        if (action === 'add') group.members.set(phone, null)
        if (action === 'remove') group.members.delete(phone)
        if (action === 'promote' || action === 'demote') group.members.set(phone, action === 'promote' ? 'admin' : null)
      }
      const objects = participants.map((p) => {
        const account = this.accounts.get(p.split('@')[0]!)!
        return { id: account.lid, phoneNumber: account.jid, admin: group.members.get(account.phone) ?? null }
      })
      queueMicrotask(() => socket.emit('group-participants.update', { id: jid, author: me.lid, authorPn: me.jid, participants: objects, action }))
      return participants.map((p) => ({ status: '200', jid: p, content: {} }))
    }
    a.updateProfileName = (name: string) => {
      me.name = name
      socket.emit('creds.update', { me: { ...creds.me!, name } })
    }
    a.updateProfileStatus = (status: string) => {
      me.about = status
    }
    a.fetchStatus = (...jids: string[]) =>
      jids.flatMap((jid) => {
        const account = [...this.accounts.values()].find((x) => x.jid === jid)
        return account ? [{ id: jid, status: { status: account.about, setAt: new Date(this.clock.now()) } }] : []
      })
    a.profilePictureUrl = () => {
      throw new Boom('item-not-found', { statusCode: 404 })
    }
    queueMicrotask(() => this.#connect(socket, sessionId))
  }

  #connect(socket: FakeSocket, sessionId: string): void {
    const creds = socket.authState.creds
    socket.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false })
    const link = this.links.get(sessionId)
    if (creds.account || creds.registered) {
      if (!link?.linked) {
        socket.close(new Boom('Connection Failure', { statusCode: 401 }))
        return
      }
      socket.emit('creds.update', { me: { ...creds.me!, name: this.meAccount.name } })
      socket.emit('connection.update', { connection: 'open' })
      const offline = link.offline.splice(0)
      if (offline.length > 0) socket.emit('messages.upsert', { type: 'append', messages: offline })
      return
    }
    const qr = `fakewa://${sessionId}/${++this.#n}`
    this.#qrs.set(qr, socket)
    socket.emit('connection.update', { qr })
  }

  #metadata(group: Group): GroupMetadata {
    const owner = this.meAccount
    return {
      id: group.id,
      subject: group.subject,
      owner: owner.lid,
      ownerPn: owner.jid,
      addressingMode: 'lid' as never,
      participants: [...group.members.entries()].map(([phone, admin]) => {
        const account = this.accounts.get(phone)!
        return { id: account.lid, phoneNumber: account.jid, admin }
      }),
    }
  }

  #keyFrom(account: Account, id: string, fromMe: boolean) {
    return { remoteJid: account.lid, remoteJidAlt: account.jid, fromMe, id, addressingMode: 'lid' }
  }

  /** Runs `emit` on every open socket of sessions linked to `me`; queues for the others. */
  #toMe(emit: (socket: FakeSocket) => void, offline?: WAMessage): void {
    for (const [sessionId, link] of this.links) {
      if (!link.linked) continue
      const socket = this.live.get(sessionId)
      if (socket && this.open.has(socket)) emit(socket)
      else if (offline) link.offline.push(offline)
    }
  }

  #peerSend(account: Account, to: string, text: string, quotedMessageId?: string): string {
    const id = `PEER${String(++this.#n).padStart(6, '0')}`
    const group = this.groups.get(to)
    const message: WAMessage = {
      key: group
        ? { remoteJid: group.id, participant: account.lid, participantAlt: account.jid, fromMe: false, id, addressingMode: 'lid' }
        : this.#keyFrom(account, id, false),
      message: quotedMessageId ? { extendedTextMessage: { text, contextInfo: { stanzaId: quotedMessageId } } } : { conversation: text },
      messageTimestamp: Math.floor(this.clock.now() / 1000),
      pushName: account.name,
    }
    if (group) {
      for (const phone of group.members.keys()) {
        if (phone !== account.phone && phone !== this.me) this.accounts.get(phone)!.inbox.push({ id, chatId: group.id, from: account.jid, text })
      }
    }
    if (group ? group.members.has(this.me) : to === this.meAccount.jid) {
      this.#toMe((socket) => socket.emit('messages.upsert', { type: 'notify', messages: [message] }), message)
    }
    return id
  }

  #fromMe(socket: FakeSocket, jid: string, content: Record<string, any>, options?: { messageId?: string; quoted?: WAMessage }): WAMessage {
    const me = this.meAccount
    const id = options?.messageId ?? `ME${++this.#n}`
    const group = this.groups.get(jid)
    const recipients = group
      ? [...group.members.keys()].filter((p) => p !== me.phone).map((p) => this.accounts.get(p)!)
      : [...this.accounts.values()].filter((x) => x.jid === jid || x.lid === jid)
    const chatId = group ? group.id : me.jid
    const targetId: string | undefined = content['react']?.key?.id ?? content['edit']?.id ?? content['delete']?.id
    for (const account of recipients) {
      const target = account.inbox.find((m) => m.id === targetId)
      if (content['react'] && target) {
        const others = (target.reactions ?? []).filter((r) => r.from !== me.jid)
        target.reactions = content['react'].text ? [...others, { from: me.jid, emoji: content['react'].text }] : others
      } else if (content['edit'] && target) {
        target.text = content['text']
        target.edited = true
      } else if (content['delete'] && target) {
        target.revoked = true
        delete target.text
      } else if (typeof content['text'] === 'string' && !content['edit']) {
        const quoted = options?.quoted?.key.id
        account.inbox.push({ id, chatId, from: me.jid, text: content['text'], ...(quoted ? { quotedMessageId: quoted } : {}) })
      }
    }
    const message: WAMessage = {
      key: { remoteJid: jid, fromMe: true, id },
      message: { extendedTextMessage: { text: String(content['text'] ?? '') } },
      messageTimestamp: Math.floor(this.clock.now() / 1000),
      status: 1,
    }
    const [recipient] = recipients
    queueMicrotask(() => {
      socket.emit('messages.upsert', { type: 'append', messages: [message] })
      if (!group && recipient && typeof content['text'] === 'string' && !content['edit']) {
        socket.emit('messages.update', [{ key: this.#keyFrom(recipient, id, true), update: { status: 3 } }])
      }
    })
    return message
  }
}
