/**
 * Local Redis and Postgres for the store tests. Tests must not assume they run: `ensureService`
 * probes the port, starts the service with the machine's own command when it is closed, and waits
 * for it; when it still cannot be reached the caller skips, with the reason logged.
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createConnection } from 'node:net'
import type { Context } from 'mocha'

export type ServiceName = 'redis' | 'postgres'

const SERVICES: Record<ServiceName, { port: number; start: string }> = {
  redis: {
    port: 6379,
    start: [
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379',
      '--save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
    ].join(' '),
  },
  postgres: { port: 5432, start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start' },
}

const START_WAIT_MS = 20_000
const POLL_MS = 250

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function isPortOpen(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    const done = (open: boolean): void => {
      socket.destroy()
      resolve(open)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/** Makes sure `name` listens; returns undefined when it does, else why it does not. */
export async function ensureService(name: ServiceName): Promise<string | undefined> {
  const { port, start } = SERVICES[name]
  if (await isPortOpen(port)) return undefined
  const run = spawnSync('sh', ['-c', start], { encoding: 'utf8', timeout: START_WAIT_MS })
  const deadline = Date.now() + START_WAIT_MS
  while (Date.now() < deadline) {
    if (await isPortOpen(port)) return undefined
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim() || run.error?.message || `exit code ${run.status}`
  return `${name} is not listening on 127.0.0.1:${port}, and \`${start}\` did not start it (${output})`
}

/** Skips the current suite (from a `before` hook) unless `name` is reachable, logging why. */
export async function requireService(ctx: Context, name: ServiceName): Promise<void> {
  ctx.timeout(START_WAIT_MS * 2)
  const reason = await ensureService(name)
  if (reason !== undefined) {
    console.warn(`    SKIPPED ${name} store tests: ${reason}`)
    ctx.skip()
  }
}

/** A namespace (SQL table or Redis prefix) unique to this run. */
export function uniqueNamespace(): string {
  return `sbtest_${process.pid}_${randomBytes(4).toString('hex')}`
}
