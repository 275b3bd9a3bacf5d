/**
 * `switchboard-sandbox`: the sandbox with its WhatsApp-protocol door as a process of its own.
 *
 * ```
 * switchboard-sandbox --port 7000 --control-port 7001 [--host 127.0.0.1] [--store sqlite:///tmp/sb.db]
 *                     [--admin-key KEY] [--account 15550001111[:Alice]]…
 * ```
 *
 * Prints one JSON line on stdout, `{ url, controlUrl, rootPublicKey }`, once both ports listen:
 * point Baileys' `waWebSocketUrl` at `url`, and (in that client process, tests only) call
 * `applyTrustAnchor(Buffer.from(rootPublicKey, 'base64'))`. The root key is kept in the store, so
 * it stays the same across restarts on a persistent store. Logs go to stderr.
 * @module
 */
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openStore } from '@switchboard/core'
import type { Logger } from '@switchboard/core'
import { listenControl } from './control-http.js'
import { startWireSandbox } from './wire-sandbox.js'

export interface CliOptions {
  port: number
  controlPort: number
  host: string
  store: string
  adminKey?: string
  accounts: { phone: string; name?: string }[]
}

export const USAGE =
  'usage: switchboard-sandbox [--port N] [--control-port M] [--host H] [--store URI] [--admin-key KEY] [--account PHONE[:NAME]]...'

/** Reads the command line; throws an Error with the usage on anything unknown. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { port: 0, controlPort: 0, host: '127.0.0.1', store: 'memory', accounts: [] }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[i + 1]
    if (value === undefined || value.startsWith('--')) throw new Error(`missing value for ${flag}\n${USAGE}`)
    i++
    switch (flag) {
      case '--port':
        options.port = port(flag, value)
        break
      case '--control-port':
        options.controlPort = port(flag, value)
        break
      case '--host':
        options.host = value
        break
      case '--store':
        options.store = value
        break
      case '--admin-key':
        options.adminKey = value
        break
      case '--account': {
        const [phone = '', name] = value.split(':', 2)
        options.accounts.push(name ? { phone, name } : { phone })
        break
      }
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`)
    }
  }
  return options
}

function port(flag: string | undefined, value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${flag} must be a port number\n${USAGE}`)
  return n
}

/** Starts everything; resolves with the addresses and a stop function. */
export async function runSandbox(options: CliOptions, logger: Logger = stderrLogger()) {
  const store = await openStore(options.store, { logger })
  const wire = await startWireSandbox({ store, port: options.port, host: options.host, logger })
  for (const account of options.accounts) {
    const existing = await wire.sandbox.accounts.list()
    if (existing.some((a) => a.phoneNumber === account.phone)) continue
    await wire.sandbox.accounts.create({ phoneNumber: account.phone, ...(account.name ? { name: account.name } : {}) })
  }
  const control = await listenControl(wire.sandbox, {
    port: options.controlPort,
    host: options.host,
    logger,
    ...(options.adminKey ? { adminKey: options.adminKey } : {}),
  })
  return {
    url: wire.url,
    controlUrl: control.url,
    rootPublicKey: wire.rootPublicKey.toString('base64'),
    async stop() {
      await control.close()
      await wire.close()
      await store.close()
    },
  }
}

/** A small JSON-lines logger on stderr (info and above). */
export function stderrLogger(bindings: Record<string, unknown> = {}): Logger {
  const at =
    (level: string, quiet = false): Logger['info'] =>
    (objOrMsg: object | string, msg?: string) => {
      if (quiet) return
      const fields = typeof objOrMsg === 'string' ? { msg: objOrMsg } : { ...objOrMsg, ...(msg ? { msg } : {}) }
      process.stderr.write(`${JSON.stringify({ level, ...bindings, ...fields }, errorsAsText)}\n`)
    }
  return {
    level: 'info',
    trace: at('trace', true),
    debug: at('debug', true),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: (more) => stderrLogger({ ...bindings, ...more }),
  }
}

const errorsAsText = (_key: string, value: unknown): unknown => (value instanceof Error ? { message: value.message, stack: value.stack } : value)

async function main(argv: readonly string[]): Promise<void> {
  let options: CliOptions
  try {
    options = parseArgs(argv)
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    process.exitCode = 2
    return
  }
  const running = await runSandbox(options)
  process.stdout.write(`${JSON.stringify({ url: running.url, controlUrl: running.controlUrl, rootPublicKey: running.rootPublicKey })}\n`)
  const stop = (): void => {
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

function isEntryPoint(): boolean {
  const entry = process.argv[1]
  if (!entry) return false
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  })
}
