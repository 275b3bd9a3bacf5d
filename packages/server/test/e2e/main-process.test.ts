import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { Api } from './support/api.js'
import { startChildServer, type ChildServer } from './support/child-server.js'

const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/main.js')
const KEYS = /wamk_[A-Za-z0-9_-]{32,}/g

describe('e2e: the built server as a child process (node dist/main.js)', function () {
  this.timeout(20_000)
  let running: ChildServer | undefined

  before(function () {
    if (!existsSync(MAIN)) {
      console.warn(`    skipped: ${MAIN} is missing (npm run build at the root builds it; npm test builds first)`)
      this.skip()
    }
  })

  afterEach(async () => {
    await running?.stop()
    running = undefined
  })

  it('prints the listening line and a generated admin key once, keeps it across a restart, exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-main-'))
    const env = {
      SWITCHBOARD_NETWORK: 'sandbox',
      PORT: '0',
      HOST: '127.0.0.1',
      SWITCHBOARD_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    }

    running = await startChildServer(MAIN, env)
    expect(running.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    const printed = running.stdout().match(KEYS) ?? []
    expect(printed, running.stdout()).to.have.length(1)
    const key = printed[0]!
    const admin = new Api(running.url, key)
    const sessions = await admin.get('/sessions')
    expect(sessions.status).to.equal(200)
    expect(sessions.body).to.deep.equal({ success: true, sessions: [] })
    expect((await admin.post('/sessions/create', { name: 'survives' })).status).to.equal(201)
    expect((await admin.get('/sessions', { key: `wamk_${'z'.repeat(40)}` })).status).to.equal(401)
    expect(existsSync(join(dataDir, 'switchboard.sqlite'))).to.equal(true)

    const first = await running.stop()
    expect(first).to.deep.equal({ code: 0, signal: null })
    running = undefined

    running = await startChildServer(MAIN, env)
    expect(running.stdout().match(KEYS), running.stdout()).to.equal(null)
    const again = await new Api(running.url, key).get('/sessions')
    expect(again.status).to.equal(200)
    expect(again.body.sessions.map((s: { name: string }) => s.name)).to.deep.equal(['survives'])
    const second = await running.stop()
    running = undefined
    expect(second).to.deep.equal({ code: 0, signal: null })
  })
})
