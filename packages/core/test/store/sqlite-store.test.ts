import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { silentLogger } from '../../src/kernel/index.js'
import { openStore } from '../../src/store/index.js'
import { openSqliteBackend, SQLITE_BUSY_TIMEOUT_MS } from '../../src/store/sqlite-backend.js'
import { describeStoreConformance } from './support/store-conformance.js'

const NAMESPACE = 'sbtest'

describeStoreConformance('openStore("sqlite://…")', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-store-'))
  const file = join(dir, 'nested', 'folder', 'store.sqlite')
  return {
    kind: 'sqlite',
    persistent: true,
    open: () => openStore(`sqlite://${file}`, { namespace: NAMESPACE }),
    async installPoison() {
      const backend = await openSqliteBackend(file, NAMESPACE, silentLogger)
      await backend.query(
        `CREATE TRIGGER IF NOT EXISTS poison BEFORE INSERT ON ${NAMESPACE}
         WHEN instr(NEW.key, 'poison') > 0 BEGIN SELECT RAISE(ABORT, 'poison refused'); END`,
      )
      await backend.close()
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  }
})

describe('the sqlite backend', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-store-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('creates the parent folders, uses WAL and a busy timeout', async () => {
    const file = join(dir, 'a', 'b', 'db.sqlite')
    const backend = await openSqliteBackend(file, 'switchboard', silentLogger)
    expect(await backend.query('PRAGMA journal_mode')).to.deep.equal([{ journal_mode: 'wal' }])
    expect(await backend.query('PRAGMA busy_timeout')).to.deep.equal([{ timeout: SQLITE_BUSY_TIMEOUT_MS }])
    await backend.set('c', 'id', '1')
    expect(existsSync(`${file}-wal`)).to.equal(true)
    await backend.close()
  })

  it('flushes on close: a second store on the file sees every write', async () => {
    const uri = `sqlite://${join(dir, 'db.sqlite')}`
    const first = await openStore(uri)
    const writes = Array.from({ length: 50 }, (_, i) => first.collection<number>('c').set(`k${i}`, i))
    await first.close()
    await Promise.all(writes)
    const second = await openStore(uri)
    expect(await second.collection('c').get('k49')).to.equal(49)
    await second.close()
  })

  it('opens an in-memory database for sqlite://:memory:', async () => {
    const store = await openStore('sqlite://:memory:')
    await store.collection('c').set('x', 1)
    expect(await store.collection('c').get('x')).to.equal(1)
    await store.close()
  })
})
