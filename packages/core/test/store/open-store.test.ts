import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { expect } from 'chai'
import { openStore, parseStoreUri, redactUri } from '../../src/store/index.js'
import { rejectionOf } from './support/store-helpers.js'

const EXPECTED = 'expected memory, sqlite://<path>, redis://…, rediss://…, postgres://… or postgresql://…'

/** A local port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

describe('parseStoreUri()', () => {
  it('reads every supported form', () => {
    expect(parseStoreUri('memory')).to.deep.equal({ kind: 'memory' })
    expect(parseStoreUri(' memory:// ')).to.deep.equal({ kind: 'memory' })
    const sqlite = (file: string) => ({ kind: 'sqlite', file })
    expect(parseStoreUri('sqlite:///var/lib/sb/db.sqlite')).to.deep.equal(sqlite('/var/lib/sb/db.sqlite'))
    expect(parseStoreUri('sqlite://data/db.sqlite')).to.deep.equal(sqlite(resolve(process.cwd(), 'data/db.sqlite')))
    expect(parseStoreUri('sqlite://./db.sqlite')).to.deep.equal(sqlite(resolve(process.cwd(), 'db.sqlite')))
    expect(parseStoreUri('sqlite://:memory:')).to.deep.equal({ kind: 'sqlite', file: ':memory:' })
    expect(parseStoreUri('SQLite://x.db')).to.deep.equal({ kind: 'sqlite', file: resolve(process.cwd(), 'x.db') })
    expect(parseStoreUri('redis://h:6379/2')).to.deep.equal({ kind: 'redis', url: 'redis://h:6379/2' })
    expect(parseStoreUri('rediss://u:p@h')).to.deep.equal({ kind: 'redis', url: 'rediss://u:p@h' })
    expect(parseStoreUri('postgres://u@h/db')).to.deep.equal({ kind: 'postgres', url: 'postgres://u@h/db' })
    expect(parseStoreUri('postgresql://u@h:5433/db?sslmode=require')).to.deep.equal({
      kind: 'postgres',
      url: 'postgresql://u@h:5433/db?sslmode=require',
    })
    expect(parseStoreUri('postgresql:///db?host=/run/postgresql')).to.deep.equal({
      kind: 'postgres',
      url: 'postgresql:///db?host=/run/postgresql',
    })
  })

  it('names the problem of an invalid URI, without echoing a password', () => {
    const cases: [string, string][] = [
      ['', `Store URI is empty: ${EXPECTED}`],
      ['  ', `Store URI is empty: ${EXPECTED}`],
      ['mysql://u:secret@h/db', `Store URI scheme "mysql://" is not supported: ${EXPECTED}`],
      ['file:///tmp/x', `Store URI scheme "file://" is not supported: ${EXPECTED}`],
      ['data.sqlite', `Store URI "data.sqlite" does not start with a scheme (<name>://): ${EXPECTED}`],
      ['sqlite:data.sqlite', `Store URI "sqlite:data.sqlite" does not start with a scheme (<name>://): ${EXPECTED}`],
      ['u:secret@h', `Store URI does not start with a scheme (<name>://): ${EXPECTED}`],
      ['sqlite://', 'Store URI "sqlite://" names no database file: expected sqlite://<path>'],
      ['redis://u:secret@', 'Store URI "redis://u:***@" is not a valid redis:// URL'],
      ['rediss:///0', 'Store URI "rediss:///0" names no host: expected rediss://<host>[:port]/…'],
      ['postgres://u:secret@:5432/db', 'Store URI "postgres://u:***@:5432/db" is not a valid postgres:// URL'],
    ]
    for (const [uri, message] of cases) expect(() => parseStoreUri(uri), uri).to.throw(Error, message)
  })

  it('redacts passwords', () => {
    expect(redactUri('postgres://root:s3cr%40t@h:5432/db')).to.equal('postgres://root:***@h:5432/db')
    expect(redactUri('redis://:pw@h')).to.equal('redis://:***@h')
    expect(redactUri('redis://h:6379')).to.equal('redis://h:6379')
    expect(redactUri('postgres://root@h/db')).to.equal('postgres://root@h/db')
  })
})

describe('openStore()', () => {
  it('rejects an invalid URI with the parse error', async () => {
    const err = await rejectionOf(openStore('mongodb://h/db'))
    expect(err.message).to.equal(`Store URI scheme "mongodb://" is not supported: ${EXPECTED}`)
  })

  it('rejects an invalid namespace', async () => {
    for (const namespace of ['', 'Upper', '1st', 'has-dash', 'a'.repeat(49)]) {
      const err = await rejectionOf(openStore('memory', { namespace }))
      const rule = 'use lowercase letters, digits and "_", starting with a letter (48 at most)'
      expect(err.message, namespace).to.equal(`Invalid store namespace "${namespace}": ${rule}`)
    }
  })

  it('fails fast, naming the redacted URI and the cause, when Redis cannot be reached', async () => {
    const port = await closedPort()
    const err = await rejectionOf(openStore(`redis://:secret@127.0.0.1:${port}`))
    expect(err.message).to.equal(
      `Cannot open store redis://:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    )
  })

  it('fails fast, naming the redacted URI and the cause, when Postgres cannot be reached', async () => {
    const port = await closedPort()
    const err = await rejectionOf(openStore(`postgres://root:secret@127.0.0.1:${port}/test`))
    expect(err.message).to.equal(
      `Cannot open store postgres://root:***@127.0.0.1:${port}/test: connect ECONNREFUSED 127.0.0.1:${port}`,
    )
  })

  it('fails with the SQLite error when the file cannot be opened', async () => {
    const err = await rejectionOf(openStore('sqlite:///'))
    expect(err.message).to.equal('Cannot open store sqlite:///: SQLITE_CANTOPEN: unable to open database file')
  })

  it('logs the opening through the given logger', async () => {
    const lines: unknown[] = []
    const log = (obj: unknown, msg?: string) => lines.push([obj, msg])
    const logger = {
      level: 'info',
      ...{ trace: log, debug: log, info: log, warn: log, error: log, fatal: log },
      child: () => logger,
    }
    const store = await openStore('memory', { logger, namespace: 'ns1' })
    await store.close()
    expect(lines).to.deep.equal([
      [{ store: 'memory', uri: 'memory', namespace: 'ns1' }, 'store opened'],
      [{ store: 'memory' }, 'store closed'],
    ])
  })
})
