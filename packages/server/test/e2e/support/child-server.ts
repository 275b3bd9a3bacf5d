import { spawn, type ChildProcess } from 'node:child_process'
import { waitFor } from './wait.js'

/** A server run as `node dist/main.js`, with what it printed so far. */
export interface ChildServer {
  process: ChildProcess
  stdout(): string
  stderr(): string
  /** The `http://HOST:PORT` of the `listening on` line. */
  url: string
  /** Sends SIGTERM and resolves with the exit code and signal. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Starts `node <main>` with exactly `env` (plus PATH and HOME; nothing else from this process, so
 * no SWITCHBOARD_ADMIN_KEY leaks in) and resolves once it printed its `listening on` line.
 */
export async function startChildServer(main: string, env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  let gone = false
  void exited.then(() => (gone = true))
  const url = await waitFor(
    () => {
      if (gone) throw new Error(`server exited before listening:\n${out}\n${err}`)
      return /listening on (http:\/\/\S+)/.exec(out)?.[1]
    },
    { timeoutMs: 10_000, what: 'the listening line' },
  )
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    url,
    stop: () => {
      if (!gone) child.kill('SIGTERM')
      return exited
    },
  }
}
