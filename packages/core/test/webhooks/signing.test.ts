import { expect } from 'chai'
import {
  createWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
} from '../../src/webhooks/index.js'
import { expectedSignature, OTHER_SECRET, SECRET } from './helpers.js'

const body = '{"event":"ready","sessionId":"s1"}'
const message = { id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: 1769850902, body }

describe('createWebhookSecret()', () => {
  it('makes whsec_ + base64 of 32 random bytes', () => {
    const secret = createWebhookSecret()
    expect(secret.startsWith(WEBHOOK_SECRET_PREFIX)).to.equal(true)
    const encoded = secret.slice('whsec_'.length)
    expect(encoded).to.match(/^[A-Za-z0-9+/]+=*$/)
    expect(Buffer.from(encoded, 'base64')).to.have.length(32)
  })

  it('makes a different secret each time', () => {
    expect(createWebhookSecret()).to.not.equal(createWebhookSecret())
  })
})

describe('signWebhook(secret, message)', () => {
  it('returns the three Standard Webhooks headers', () => {
    const headers = signWebhook(SECRET, message)
    expect(headers).to.deep.equal({
      'webhook-id': message.id,
      'webhook-timestamp': '1769850902',
      'webhook-signature': expectedSignature(SECRET, message.id, '1769850902', body),
    })
  })

  it('matches the Standard Webhooks reference vector', () => {
    // From the standard-webhooks specification's test suite.
    const headers = signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', {
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    })
    expect(headers['webhook-signature']).to.equal('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
  })

  it('signs bytes the same as the equal string', () => {
    expect(signWebhook(SECRET, { ...message, body: Buffer.from(body) })).to.deep.equal(signWebhook(SECRET, message))
  })

  it('accepts a secret without the whsec_ prefix', () => {
    expect(signWebhook(SECRET.slice(6), message)).to.deep.equal(signWebhook(SECRET, message))
  })
})

describe('verifyWebhook(secret, headers, body, options)', () => {
  const headers = signWebhook(SECRET, message)
  const nowSec = message.timestamp + 10

  it('accepts a genuine request and returns its id and timestamp', () => {
    expect(verifyWebhook(SECRET, headers, body, { nowSec })).to.deep.equal({ ok: true, id: message.id, timestamp: 1769850902 })
  })

  it('reads a fetch Headers object and a raw body in bytes', () => {
    expect(verifyWebhook(SECRET, new Headers(headers), Buffer.from(body), { nowSec }).ok).to.equal(true)
  })

  it('reads header names case-insensitively and takes the first of repeated values', () => {
    const mixed = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': [headers['webhook-timestamp']],
      'webhook-signature': headers['webhook-signature'],
    }
    expect(verifyWebhook(SECRET, mixed, body, { nowSec }).ok).to.equal(true)
  })

  it('rejects a changed body, id or timestamp', () => {
    expect(verifyWebhook(SECRET, headers, body + ' ', { nowSec })).to.deep.equal({ ok: false, reason: 'no matching signature' })
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-id': 'other' }, body, { nowSec }).ok).to.equal(false)
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-timestamp': '1769850903' }, body, { nowSec }).ok).to.equal(false)
  })

  it('rejects another secret', () => {
    expect(verifyWebhook(OTHER_SECRET, headers, body, { nowSec })).to.deep.equal({ ok: false, reason: 'no matching signature' })
  })

  it('accepts when any of several space-separated signatures matches (secret rotation)', () => {
    const other = signWebhook(OTHER_SECRET, message)['webhook-signature']
    const both = { ...headers, 'webhook-signature': `v2,abc ${other} ${headers['webhook-signature']}` }
    expect(verifyWebhook(SECRET, both, body, { nowSec }).ok).to.equal(true)
  })

  it('rejects a timestamp outside the tolerance (default 5 minutes)', () => {
    expect(verifyWebhook(SECRET, headers, body, { nowSec: message.timestamp + 300 }).ok).to.equal(true)
    expect(verifyWebhook(SECRET, headers, body, { nowSec: message.timestamp + 301 })).to.deep.equal({
      ok: false,
      reason: 'timestamp too old',
    })
    expect(verifyWebhook(SECRET, headers, body, { nowSec: message.timestamp - 301 })).to.deep.equal({
      ok: false,
      reason: 'timestamp too new',
    })
    expect(verifyWebhook(SECRET, headers, body, { nowSec: message.timestamp + 3600, toleranceSec: 3600 }).ok).to.equal(true)
  })

  it('rejects missing headers and a malformed timestamp', () => {
    const { 'webhook-signature': _, ...unsigned } = headers
    expect(verifyWebhook(SECRET, unsigned, body, { nowSec })).to.deep.equal({ ok: false, reason: 'missing headers' })
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-timestamp': '17e8' }, body, { nowSec })).to.deep.equal({
      ok: false,
      reason: 'invalid timestamp',
    })
  })
})
