/**
 * The error catalog against the contract, both ways: every error text of the spec's Errors table
 * and of decisions.md's status table is in the catalog with that status, and every catalog text
 * is one the contract names (or one of ours listed below).
 */
import { expect } from 'chai'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ERRORS, GatewayError, type ErrorCode } from '../../src/errors/index.js'

const SPEC_DIR = fileURLToPath(new URL('../../../../../shared/spec/', import.meta.url))

/** Sample details so that templated messages render. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  TRIAL_RECIPIENT_NOT_ALLOWED: { allowedNumbers: ['15550001111', '15550002222'] },
  RATE_LIMITED: { retryAfter: 42 },
  SESSION_NOT_AUTHENTICATED: { sessionId: 'abc' },
  QR_NOT_AVAILABLE: { state: 'starting' },
  VALIDATION_FAILED: { reason: 'name is required' },
}

/** Texts of ours that the contract does not list (sandbox control API, body parsing, network). */
const OURS: ErrorCode[] = [
  'SESSION_NAME_TAKEN',
  'NETWORK_UNAVAILABLE',
  'SANDBOX_ACCOUNT_EXISTS',
  'SANDBOX_ACCOUNT_NOT_FOUND',
  'SANDBOX_QR_INVALID',
  'SANDBOX_CODE_INVALID',
  'VALIDATION_FAILED',
  'MEDIA_PATH_INVALID',
  'GROUP_ADMIN_REQUIRED',
  'INVALID_JSON_BODY',
  'BODY_TOO_LARGE',
]

function rendered(): { code: ErrorCode; text: string; status: number }[] {
  return (Object.keys(ERRORS) as ErrorCode[]).map((code) => {
    const err = new GatewayError(code as never, (SAMPLES[code] ?? {}) as never)
    return { code, text: err.message, status: err.status }
  })
}

/** A contract text as a pattern: `<placeholders>` and `{id}` match anything. */
function pattern(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${escaped.replace(/<[^>]+>|\\\{id\\\}/g, '.+')}$`)
}

/** Rows `| … | \`text\` | status |` of the markdown tables in `file`. */
function tableTexts(file: string): { text: string; status?: number }[] {
  const rows: { text: string; status?: number }[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('|')) continue
    const cells = line.split('|').map((c) => c.trim())
    const status = cells.map((c) => /^(\d{3})\b/.exec(c)?.[1]).find(Boolean)
    // Error texts are the backticked sentences (capitalized, with a space), several per cell at times.
    for (const [, text] of line.matchAll(/`([A-Z][^`]* [^`]*)`/g)) {
      rows.push({ text: text!, ...(status ? { status: Number(status) } : {}) })
    }
  }
  return rows
}

describe('errors/ERRORS (the catalog against the contract)', function () {
  before(function () {
    if (!existsSync(SPEC_DIR)) this.skip() // the contract folder sits beside the repository in CI and dev
  })

  it('has every error text of decisions.md with its status', () => {
    const contract = tableTexts(`${SPEC_DIR}decisions.md`).filter((r) => r.status !== undefined && r.text.length > 8)
    expect(contract.length).to.be.greaterThan(25)
    const catalog = rendered()
    for (const row of contract) {
      const re = pattern(row.text)
      const matches = catalog.filter((e) => re.test(e.text))
      expect(matches, `catalog lacks "${row.text}"`).to.not.be.empty
      expect(matches.map((m) => m.status), `status of "${row.text}"`).to.include(row.status)
    }
  })

  it('has every error text of the interface spec', () => {
    const section = readFileSync(`${SPEC_DIR}interface-spec.md`, 'utf8').split('## Errors')[1]!.split('## Limits')[0]!
    const texts = tableTexts(`${SPEC_DIR}interface-spec.md`)
      .map((r) => r.text)
      .filter((t) => section.includes(`\`${t}\``))
    expect(texts.length).to.be.greaterThan(20)
    const catalog = rendered()
    for (const text of texts) {
      const re = pattern(text.replace('<network>', 'WhatsApp'))
      expect(catalog.some((e) => re.test(e.text)), `catalog lacks "${text}"`).to.equal(true)
    }
  })

  it('has no text the contract does not name, except our own listed ones', () => {
    const contract = [
      ...tableTexts(`${SPEC_DIR}decisions.md`).map((r) => r.text),
      ...tableTexts(`${SPEC_DIR}interface-spec.md`).map((r) => r.text.replace('<network>', 'WhatsApp')),
    ].map(pattern)
    for (const entry of rendered()) {
      if (OURS.includes(entry.code)) continue
      expect(contract.some((re) => re.test(entry.text)), `${entry.code}: "${entry.text}" is not in the contract`).to.equal(true)
    }
  })

  it('uses only the statuses the spec lists', () => {
    for (const entry of rendered()) expect([400, 401, 403, 404, 429, 500, 503]).to.include(entry.status)
  })
})
