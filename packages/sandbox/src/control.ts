/**
 * The sandbox control API as an operation table: one entry per endpoint of the sandbox spec, all
 * for admin keys. The server mounts {@link SANDBOX_ROUTES} over {@link SANDBOX_OPERATIONS} only
 * when it runs on the sandbox network, and adds `success: true` to every answer.
 * @module
 */
import { z } from 'zod'
import { parseInput } from '@switchboard/core'
import type { OperationTable } from '@switchboard/core'
import type { Sandbox, SandboxAccount } from './sandbox-api.js'

const phoneParam = { phone: z.string().min(1) }

const createAccountInput = z.object({
  phoneNumber: z.string().min(1),
  name: z.string().min(1).optional(),
  about: z.string().optional(),
})
const noInput = z.object({})
const scanInput = z.object({ ...phoneParam, qr: z.string().min(1) })
const linkCodeInput = z.object({ ...phoneParam, code: z.string().min(1) })
const sendInput = z.object({
  ...phoneParam,
  to: z.string().min(1),
  text: z.string().min(1),
  quotedMessageId: z.string().min(1).optional(),
})
const phoneInput = z.object(phoneParam)
const readInput = z.object({ ...phoneParam, chatId: z.string().min(1), messageIds: z.array(z.string().min(1)).min(1) })
const reactInput = z.object({ ...phoneParam, chatId: z.string().min(1), messageId: z.string().min(1), emoji: z.string() })
const unlinkInput = z.object({ ...phoneParam, sessionId: z.string().min(1) })
const dropInput = z.object({ id: z.string().min(1) })

/** An account as `POST /sandbox/accounts` answers it. */
const accountView = (a: SandboxAccount) => ({ phoneNumber: a.phoneNumber, jid: a.jid, name: a.name })

/** An account in the list: the created view plus its about text and linked sessions. */
const listedAccountView = (a: SandboxAccount) => ({ ...accountView(a), about: a.about, sessions: a.sessions })

export const SANDBOX_OPERATIONS = {
  'sandbox.accounts.create': {
    summary: 'Create a simulated account (a phone on the sandbox network)',
    access: 'admin',
    input: createAccountInput,
    successStatus: 201,
    async run(sandbox, raw) {
      const input = parseInput(createAccountInput, raw)
      const account = await sandbox.accounts.create({
        phoneNumber: input.phoneNumber,
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.about === undefined ? {} : { about: input.about }),
      })
      return { account: accountView(account) }
    },
  },
  'sandbox.accounts.list': {
    summary: 'List the simulated accounts, oldest first',
    access: 'admin',
    input: noInput,
    async run(sandbox) {
      return { accounts: (await sandbox.accounts.list()).map(listedAccountView) }
    },
  },
  'sandbox.accounts.scan': {
    summary: "The account scans a session's QR payload (links the session to it)",
    access: 'admin',
    input: scanInput,
    async run(sandbox, raw) {
      const { phone, qr } = parseInput(scanInput, raw)
      return sandbox.scan(phone, qr)
    },
  },
  'sandbox.accounts.linkCode': {
    summary: 'The account enters a pairing code requested for its number (links the session to it)',
    access: 'admin',
    input: linkCodeInput,
    async run(sandbox, raw) {
      const { phone, code } = parseInput(linkCodeInput, raw)
      return sandbox.enterCode(phone, code)
    },
  },
  'sandbox.accounts.send': {
    summary: 'The account sends a text to a number or a group',
    access: 'admin',
    input: sendInput,
    successStatus: 201,
    async run(sandbox, raw) {
      const { phone, to, text, quotedMessageId } = parseInput(sendInput, raw)
      return sandbox.sendAs(phone, { to, text, ...(quotedMessageId === undefined ? {} : { quotedMessageId }) })
    },
  },
  'sandbox.accounts.inbox': {
    summary: 'Every message the account has received, oldest first',
    access: 'admin',
    input: phoneInput,
    async run(sandbox, raw) {
      const { phone } = parseInput(phoneInput, raw)
      return { messages: await sandbox.inbox(phone) }
    },
  },
  'sandbox.accounts.read': {
    summary: 'The account reads messages it received; their senders get a read receipt',
    access: 'admin',
    input: readInput,
    async run(sandbox, raw) {
      const { phone, chatId, messageIds } = parseInput(readInput, raw)
      await sandbox.read(phone, chatId, messageIds)
      return {}
    },
  },
  'sandbox.accounts.react': {
    summary: 'The account reacts to a message (an empty emoji removes the reaction)',
    access: 'admin',
    input: reactInput,
    async run(sandbox, raw) {
      const { phone, chatId, messageId, emoji } = parseInput(reactInput, raw)
      await sandbox.react(phone, { chatId, messageId, emoji })
      return {}
    },
  },
  'sandbox.accounts.unlink': {
    summary: 'The account removes a linked session from its phone; the session goes logged_out',
    access: 'admin',
    input: unlinkInput,
    async run(sandbox, raw) {
      const { phone, sessionId } = parseInput(unlinkInput, raw)
      await sandbox.unlink(phone, sessionId)
      return {}
    },
  },
  'sandbox.sessions.drop': {
    summary: "The network drops a session's connection; it goes disconnected, then ready again",
    access: 'admin',
    input: dropInput,
    async run(sandbox, raw) {
      const { id } = parseInput(dropInput, raw)
      await sandbox.drop(id)
      return {}
    },
  },
} as const satisfies OperationTable<Sandbox>

export type SandboxOperationName = keyof typeof SANDBOX_OPERATIONS

/** Where each control operation is reached (Koa-router paths; `:name` segments become input fields). */
export const SANDBOX_ROUTES = {
  'sandbox.accounts.create': { method: 'POST', path: '/sandbox/accounts' },
  'sandbox.accounts.list': { method: 'GET', path: '/sandbox/accounts' },
  'sandbox.accounts.scan': { method: 'POST', path: '/sandbox/accounts/:phone/scan' },
  'sandbox.accounts.linkCode': { method: 'POST', path: '/sandbox/accounts/:phone/link-code' },
  'sandbox.accounts.send': { method: 'POST', path: '/sandbox/accounts/:phone/messages' },
  'sandbox.accounts.inbox': { method: 'GET', path: '/sandbox/accounts/:phone/messages' },
  'sandbox.accounts.read': { method: 'POST', path: '/sandbox/accounts/:phone/read' },
  'sandbox.accounts.react': { method: 'POST', path: '/sandbox/accounts/:phone/react' },
  'sandbox.accounts.unlink': { method: 'POST', path: '/sandbox/accounts/:phone/unlink' },
  'sandbox.sessions.drop': { method: 'POST', path: '/sandbox/sessions/:id/drop' },
} as const satisfies Record<SandboxOperationName, { method: 'GET' | 'POST'; path: string }>
