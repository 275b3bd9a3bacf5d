/**
 * REST operations of the Sessions part of the spec, and `/send` (text).
 * @module
 */
import { isoAt } from '../kernel/clock.js'
import { listView, statusView } from '../sessions/session-record.js'
import { parseInput } from '../schemas/validate.js'
import {
  checkNumberInput,
  createSessionInput,
  qrInput,
  requestCodeInput,
  sendTextInput,
  sessionRefInput,
  setWebhookInput,
} from '../schemas/sessions.js'
import type { Gateway } from '../gateway.js'
import type { OperationSpec } from './types.js'

const PAIRING_INSTRUCTIONS =
  'Open WhatsApp on your phone, go to Settings > Linked devices > Link a device > Link with phone number instead, and enter this code. It expires in about 60 seconds.'

export const SESSION_OPERATIONS = {
  'sessions.create': {
    summary: 'Create a session; answers its session key (shown once) and webhook secret',
    access: 'tenant',
    input: createSessionInput,
    successStatus: 201,
    async run(gw, raw, call) {
      const input = parseInput(createSessionInput, raw)
      const { record, apiKey } = await gw.sessions.create(input, call.principal ?? gw.masterPrincipal())
      return {
        session: { id: record.id, name: record.name, state: record.state, createdAt: isoAt(record.createdAtMs) },
        apiKey,
        webhookSecret: record.webhookSecret,
        warning: 'Store the apiKey and webhookSecret now: they are shown only once.',
      }
    },
  },
  'sessions.list': {
    summary: 'List sessions (an admin key sees all, a tenant key its own)',
    access: 'tenant',
    input: sessionRefInput.partial(),
    async run(gw, _raw, call) {
      const principal = call.principal ?? gw.masterPrincipal()
      const visible = gw.sessions
        .all()
        .filter((s) => principal.isAdmin || s.accountKeyId === principal.accountKeyId)
        .sort((a, b) => a.createdAtMs - b.createdAtMs)
      return { sessions: visible.map((s) => listView(s, isoAt)) }
    },
  },
  'sessions.status': {
    summary: 'Status of a session',
    access: 'session',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      return { session: statusView(gw.sessions.get(id), isoAt) }
    },
  },
  'sessions.qr': {
    summary: 'QR code to link the session (raw payload, or ?format=png for a PNG data URL); once per 5 s',
    access: 'session',
    input: qrInput,
    async run(gw, raw) {
      const { id, format } = parseInput(qrInput, raw)
      return { qr: await gw.sessions.qr(id, format ?? 'raw') }
    },
  },
  'sessions.requestCode': {
    summary: 'Request an 8-character pairing code for linking with a phone number',
    access: 'session',
    input: requestCodeInput,
    sessionNotFound: 'SESSION_NOT_FOUND_OR_NOT_STARTED',
    async run(gw, raw) {
      const { id, phoneNumber } = parseInput(requestCodeInput, raw)
      const result = await gw.sessions.requestPairingCode(id, phoneNumber)
      return { ...result, message: PAIRING_INSTRUCTIONS }
    },
  },
  'sessions.stop': {
    summary: 'Stop a session and keep its link (start reconnects without a QR)',
    access: 'session',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      await gw.sessions.stop(id)
      return { message: 'Session stopped' }
    },
  },
  'sessions.start': {
    summary: 'Start a stopped session (reconnects with its link, or shows a new QR after a logout)',
    access: 'session',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      const outcome = await gw.sessions.startSession(id)
      return { message: outcome === 'started' ? 'Session started' : 'Session is already running' }
    },
  },
  'sessions.logout': {
    summary: 'Unlink the session from the phone; credentials are wiped',
    access: 'session',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      await gw.sessions.logout(id)
      return { message: 'Session logged out' }
    },
  },
  'sessions.delete': {
    summary: 'Delete a session and all its data (admin key only); irreversible',
    access: 'tenant',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      await gw.sessions.delete(id)
      return { message: 'Session deleted' }
    },
  },
  'sessions.setWebhook': {
    summary: 'Set (or with null remove) the webhook URL of a session',
    access: 'session',
    input: setWebhookInput,
    async run(gw, raw) {
      const { id, url } = parseInput(setWebhookInput, raw)
      const record = await gw.sessions.setWebhook(id, url)
      return { message: url === null ? 'Webhook removed' : 'Webhook updated', webhookUrl: record.webhookUrl }
    },
  },
  'sessions.checkNumber': {
    summary: 'Whether a number is registered on WhatsApp',
    access: 'session',
    input: checkNumberInput,
    async run(gw, raw) {
      const { id, phone } = parseInput(checkNumberInput, raw)
      return gw.messaging.checkNumber(id, phone)
    },
  },
  'sessions.contacts': {
    summary: 'Contacts known to the session',
    access: 'session',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      gw.sessions.get(id)
      return { contacts: await gw.directory.listContacts(id) }
    },
  },
  'sessions.chats': {
    summary: 'Chats of the session, newest first',
    access: 'session',
    input: sessionRefInput,
    async run(gw, raw) {
      const { id } = parseInput(sessionRefInput, raw)
      gw.sessions.get(id)
      return { chats: await gw.directory.listChats(id) }
    },
  },
  'messages.sendText': {
    summary: 'Send a text message, optionally as a reply (quotedMessageId)',
    access: 'session',
    input: sendTextInput,
    async run(gw, raw, call) {
      const { id, ...input } = parseInput(sendTextInput, raw)
      return gw.messaging.sendText(id, input, call.principal)
    },
  },
} as const satisfies Record<string, OperationSpec<Gateway>>
