import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { parseArgs, runSandbox, USAGE } from '../../src/doors/wire/cli.js'
import { silentLogger } from '@switchboard/core'
import { applyTrustAnchor, restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'

describe('switchboard-sandbox (standalone emulator)', function () {
  this.timeout(20_000)

  describe('parseArgs', () => {
    it('reads ports, host, store, key and accounts', () => {
      expect(parseArgs(['--port', '7000', '--control-port', '7001', '--host', '0.0.0.0', '--store', 'sqlite:///tmp/x.db', '--admin-key', 'k', '--account', `${ALICE}:Alice`, '--account', BOB])).to.deep.equal({
        port: 7000,
        controlPort: 7001,
        host: '0.0.0.0',
        store: 'sqlite:///tmp/x.db',
        adminKey: 'k',
        accounts: [{ phone: ALICE, name: 'Alice' }, { phone: BOB }],
      })
      expect(parseArgs([])).to.deep.equal({ port: 0, controlPort: 0, host: '127.0.0.1', store: 'memory', accounts: [] })
    })

    it('refuses unknown options, missing values and bad ports with the usage', () => {
      expect(() => parseArgs(['--nope', '1'])).to.throw(`unknown option --nope\n${USAGE}`)
      expect(() => parseArgs(['--port'])).to.throw(`missing value for --port\n${USAGE}`)
      expect(() => parseArgs(['--port', '70000'])).to.throw(`--port must be a port number\n${USAGE}`)
    })
  })

  describe('the control API on its own port', () => {
    let running: Awaited<ReturnType<typeof runSandbox>>
    const clients: TestClient[] = []
    const call = async (method: string, path: string, body?: unknown, key = 'secret') => {
      const res = await fetch(`${running.controlUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }

    before(async () => {
      running = await runSandbox({ ...parseArgs(['--admin-key', 'secret', '--account', `${ALICE}:Alice`]) }, silentLogger)
      applyTrustAnchor(Buffer.from(running.rootPublicKey, 'base64'))
    })

    after(async () => {
      for (const c of clients) await c.stop()
      await running.stop()
      restoreTrustAnchor()
    })

    it('answers like the service: success, statuses, errors, the key', async () => {
      expect(await call('POST', '/sandbox/accounts', { phoneNumber: BOB, name: 'Bob' })).to.deep.equal({
        status: 201,
        body: { success: true, account: { phoneNumber: BOB, jid: `${BOB}@s.whatsapp.net`, name: 'Bob' } },
      })
      const list = await call('GET', '/sandbox/accounts')
      expect((list.body.accounts as { phoneNumber: string }[]).map((a) => a.phoneNumber)).to.deep.equal([ALICE, BOB])
      expect(await call('POST', '/sandbox/accounts', { phoneNumber: BOB })).to.deep.equal({ status: 400, body: { success: false, error: 'Account already exists' } })
      expect(await call('POST', '/sandbox/accounts', '{nope')).to.deep.equal({ status: 400, body: { success: false, error: 'Invalid JSON body' } })
      expect(await call('GET', '/sandbox/nothing')).to.deep.equal({ status: 404, body: { success: false, error: 'Not found' } })
      expect((await call('GET', '/sandbox/accounts', undefined, '')).body.error).to.equal('API key required. Please provide an API key via X-API-Key header.')
      expect(await call('GET', '/sandbox/accounts', undefined, 'wrong')).to.deep.equal({ status: 401, body: { success: false, error: 'Invalid API key' } })
    })

    it('links a Baileys client with the QR it shows, then messages flow through the API', async () => {
      const client = new TestClient(running.url)
      clients.push(client)
      const scan = await call('POST', `/sandbox/accounts/${ALICE}/scan`, { qr: await client.qr() })
      expect(scan).to.deep.equal({ status: 200, body: { success: true, sessionId: `wire-${ALICE}-1` } })
      await client.opened()
      const sent = await client.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'over the wire' })
      const inbox = await until(async () => {
        const r = await call('GET', `/sandbox/accounts/${BOB}/messages`)
        return (r.body.messages as { id: string; text?: string }[]).find((m) => m.id === sent!.key.id)
      })
      expect(inbox.text).to.equal('over the wire')
      const reply = await call('POST', `/sandbox/accounts/${BOB}/messages`, { to: ALICE, text: 'got it' })
      expect(reply.status).to.equal(201)
      await client.waitFor((ev) => {
        for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === reply.body.messageId) return true
        return undefined
      }, 'reply')
      expect(await call('POST', `/sandbox/sessions/wire-${ALICE}-1/drop`)).to.deep.equal({ status: 200, body: { success: true } })
      await client.opened(2)
    })
  })

  it('runs as a process of its own and prints where to connect', async () => {
    const cli = fileURLToPath(new URL('../../src/doors/wire/cli.ts', import.meta.url))
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--conditions', 'switchboard-src', cli, '--account', ALICE], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const [line] = (await once(child.stdout!, 'data')) as [Buffer]
      const info = JSON.parse(line.toString()) as { url: string; controlUrl: string; rootPublicKey: string }
      expect(info.url).to.match(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/chat$/)
      expect(Buffer.from(info.rootPublicKey, 'base64')).to.have.length(32)
      const accounts = (await (await fetch(`${info.controlUrl}/sandbox/accounts`)).json()) as { accounts: { phoneNumber: string }[] }
      expect(accounts.accounts.map((a) => a.phoneNumber)).to.deep.equal([ALICE])
      applyTrustAnchor(Buffer.from(info.rootPublicKey, 'base64'))
      const client = new TestClient(info.url)
      try {
        const qr = await client.qr()
        const scan = await fetch(`${info.controlUrl}/sandbox/accounts/${ALICE}/scan`, { method: 'POST', body: JSON.stringify({ qr }) })
        expect(scan.status).to.equal(200)
        await client.opened()
      } finally {
        await client.stop()
      }
    } finally {
      child.kill('SIGTERM')
      await once(child, 'exit')
      restoreTrustAnchor()
    }
  })
})

async function until<T>(find: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}
