import { Boom } from '@hapi/boom'
import { proto } from '@whiskeysockets/baileys'
import { expect } from 'chai'
import { GatewayError } from '../../../src/errors/index.js'
import { fromStored, messageToRaw, numberOf, rawToMessage, toJsonSafe } from '../../../src/network/baileys/codec.js'
import { toGatewayError } from '../../../src/network/baileys/errors.js'
import { backoffDelay, decideOnClose, DEFAULT_RECONNECT, reasonOf, type CloseFacts } from '../../../src/network/baileys/reconnect-policy.js'

const facts = (over: Partial<CloseFacts>): CloseFacts => ({
  statusCode: undefined,
  errorMessage: 'x',
  intentional: false,
  linked: true,
  attempts: 0,
  qrRounds: 0,
  ...over,
})

describe('reconnect policy', () => {
  const decide = (over: Partial<CloseFacts>) => decideOnClose(facts(over), DEFAULT_RECONNECT, () => 0)

  it('never reconnects an intentional close, whatever the code', () => {
    expect(decide({ intentional: true, statusCode: 428 })).to.deep.equal({ kind: 'closed' })
    expect(decide({ intentional: true })).to.deep.equal({ kind: 'closed' })
  })

  it('restarts at once on 515, logs out on 401/403/406, fails on 440/402/405/411', () => {
    expect(decide({ statusCode: 515 })).to.deep.equal({ kind: 'restart', reason: 'restart_required', quiet: true })
    expect(decide({ statusCode: 401 })).to.deep.equal({ kind: 'logged_out', reason: 'logged_out' })
    expect(decide({ statusCode: 403 })).to.deep.equal({ kind: 'logged_out', reason: 'logged_out' })
    expect(decide({ statusCode: 406 })).to.deep.equal({ kind: 'logged_out', reason: 'banned' })
    expect(decide({ statusCode: 440 })).to.deep.equal({ kind: 'failed', reason: 'replaced' })
    expect(decide({ statusCode: 402 })).to.deep.equal({ kind: 'failed', reason: 'banned' })
    expect(decide({ statusCode: 405 })).to.deep.equal({ kind: 'failed', reason: 'unknown' })
    expect(decide({ statusCode: 411 })).to.deep.equal({ kind: 'failed', reason: 'bad_session' })
  })

  it('backs off on 408/428/500/503 and on closes without a code', () => {
    for (const statusCode of [408, 428, 500, 503, undefined]) {
      expect(decide({ statusCode }).kind).to.equal('backoff')
    }
    expect(decide({ statusCode: 428, attempts: 10 })).to.deep.equal({ kind: 'failed', reason: 'connection_lost' })
    expect(decide({ statusCode: 515, attempts: 10 }).kind).to.equal('failed')
  })

  it('restarts QR rounds only for unlinked sessions whose QR refs ran out, up to the limit', () => {
    const qr = { statusCode: 408, errorMessage: 'QR refs attempts ended', linked: false }
    expect(decide(qr)).to.deep.equal({ kind: 'restart', reason: 'qr_expired', quiet: true })
    expect(decide({ ...qr, qrRounds: 2 })).to.deep.equal({ kind: 'failed', reason: 'qr_expired' })
    expect(decide({ ...qr, linked: true }).kind).to.equal('backoff')
  })

  it('computes capped exponential delays with equal jitter', () => {
    const settings = { ...DEFAULT_RECONNECT, baseMs: 1000, maxMs: 8000 }
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, settings, () => 0))).to.deep.equal([500, 1000, 2000, 4000, 4000])
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, settings, () => 1))).to.deep.equal([1000, 2000, 4000, 8000, 8000])
    expect(reasonOf(undefined)).to.equal('unknown')
  })
})

describe('Boom translation', () => {
  const boom = (statusCode: number, message = 'x') => new Boom(message, { statusCode })
  const cases: [unknown, Parameters<typeof toGatewayError>[1], string][] = [
    [boom(428, 'Connection Closed'), 'send', 'NETWORK_UNAVAILABLE'],
    [boom(408, 'Timed Out'), 'group', 'NETWORK_UNAVAILABLE'],
    [boom(503), 'chat', 'NETWORK_UNAVAILABLE'],
    [boom(400, 'App state key not present!'), 'chat', 'NETWORK_UNAVAILABLE'],
    [boom(404, 'item-not-found'), 'group', 'GROUP_NOT_FOUND'],
    [boom(403, 'forbidden'), 'group', 'GROUP_NOT_FOUND'],
    [boom(404, 'item-not-found'), 'message', 'MESSAGE_NOT_FOUND'],
    [boom(404, 'item-not-found'), 'contact', 'CONTACT_NOT_FOUND'],
    [boom(400, 'Unable to resolve LID for PN JID: 1@s.whatsapp.net'), 'contact', 'CONTACT_NOT_FOUND'],
    [boom(401, 'Not authenticated'), 'profile', 'NOT_AUTHENTICATED'],
    [boom(400, 'bad-request'), 'send', 'INTERNAL'],
    [new Error('socket hang up'), 'send', 'NETWORK_UNAVAILABLE'],
    [new Error('anything else'), 'send', 'INTERNAL'],
    ['a string', 'send', 'INTERNAL'],
  ]
  for (const [err, context, code] of cases) {
    it(`maps ${err instanceof Error ? `${(err as Boom).output?.statusCode ?? ''} "${err.message}"` : String(err)} (${context}) to ${code}`, () => {
      const translated = toGatewayError(err, context)
      expect(translated.code).to.equal(code)
      expect(translated.cause).to.equal(err)
    })
  }

  it('passes GatewayErrors through untouched', () => {
    const original = new GatewayError('MESSAGE_NOT_FOUND')
    expect(toGatewayError(original, 'send')).to.equal(original)
  })

  it('never exposes the Boom text in the client message', () => {
    expect(toGatewayError(boom(400, 'secret internals'), 'send').message).to.equal('Internal server error')
  })
})

describe('codec', () => {
  it('turns Longs into numbers (strings past 2^53), Uint8Arrays into Buffers, drops undefined', () => {
    const decoded = proto.WebMessageInfo.decode(proto.WebMessageInfo.encode({ key: { id: 'X' }, messageTimestamp: 1769850902 }).finish())
    expect(toJsonSafe({ t: decoded.messageTimestamp, u: undefined, b: new Uint8Array([1]), n: null, d: new Date(0), f: () => 1 })).to.deep.equal({
      t: 1769850902,
      b: Buffer.from([1]),
      n: null,
      d: '1970-01-01T00:00:00.000Z',
    })
    expect(toJsonSafe({ low: -1, high: 2147483647, unsigned: false })).to.equal('9223372036854775807')
    expect(toJsonSafe({ low: 5, high: 0 })).to.equal(5)
    expect(toJsonSafe(10n)).to.equal('10')
    expect(numberOf({ low: 7, high: 0, unsigned: true })).to.equal(7)
    expect(numberOf('12')).to.equal(12)
    expect(numberOf(undefined)).to.equal(0)
  })

  it('round-trips a WAMessage through raw, rebuilding the message proto', () => {
    const raw = messageToRaw({ key: { remoteJid: 'a@s.whatsapp.net', id: 'ID', fromMe: false }, message: { imageMessage: { mediaKey: new Uint8Array([1, 2]), mimetype: 'image/png' } } })
    const back = rawToMessage(JSON.parse(JSON.stringify(raw, (_k, v) => v)))
    expect(back?.key.id).to.equal('ID')
    expect(rawToMessage(raw)?.message).to.be.instanceOf(proto.Message)
    expect(Buffer.from(rawToMessage(raw)!.message!.imageMessage!.mediaKey!).equals(Buffer.from([1, 2]))).to.equal(true)
    expect(rawToMessage(undefined)).to.equal(undefined)
    expect(rawToMessage({ nope: 1 })).to.equal(undefined)
    expect(fromStored({ a: [new Uint8Array([3])] })).to.deep.equal({ a: [Buffer.from([3])] })
  })
})
