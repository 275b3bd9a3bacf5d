import { expect } from 'chai'
import { GatewayError } from '../../src/errors/index.js'
import { parseInput } from '../../src/schemas/validate.js'
import { z } from 'zod'
import { assertWebhookUrl, isWebhookUrl, webhookUrlSchema } from '../../src/webhooks/index.js'

describe('isWebhookUrl(value)', () => {
  it('accepts http and https URLs, including loopback hosts, ports and query secrets', () => {
    for (const url of [
      'https://hooks.example.com/wa',
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'https://hooks.example.com/wa?token=s3cr%2Bt&x=1',
      'https://user:pass@hooks.example.com/wa',
    ]) {
      expect(isWebhookUrl(url), url).to.equal(true)
    }
  })

  it('rejects other schemes, relative and malformed URLs, surrounding spaces and non-strings', () => {
    for (const value of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', '/hook', 'hooks.example.com', 'https://', '', ' https://x.example', 42, null, undefined]) {
      expect(isWebhookUrl(value), String(value)).to.equal(false)
    }
  })
})

describe('assertWebhookUrl(value, field?)', () => {
  it('returns the URL exactly as given', () => {
    const url = 'https://Hooks.Example.com:443/wa?token=a%2Fb'
    expect(assertWebhookUrl(url)).to.equal(url)
  })

  it('throws VALIDATION_FAILED naming the field', () => {
    const err = (() => {
      try {
        assertWebhookUrl('ftp://example.com', 'url')
      } catch (e) {
        return e
      }
    })()
    expect(err).to.be.instanceOf(GatewayError)
    expect(err).to.include({ code: 'VALIDATION_FAILED', status: 400, message: 'url must be a valid http or https URL' })
    expect(() => assertWebhookUrl('nope')).to.throw('webhookUrl must be a valid http or https URL')
  })
})

describe('webhookUrlSchema(field?)', () => {
  it('validates inside an operation schema with the same text', () => {
    const schema = z.object({ webhookUrl: webhookUrlSchema().optional() })
    expect(parseInput(schema, { webhookUrl: 'https://hooks.example.com/wa?k=1' })).to.deep.equal({ webhookUrl: 'https://hooks.example.com/wa?k=1' })
    expect(() => parseInput(schema, { webhookUrl: 'mailto:a@b.c' })).to.throw('webhookUrl must be a valid http or https URL')
  })
})
