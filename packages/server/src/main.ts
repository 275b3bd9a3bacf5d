/**
 * `npm start`: the only file with side effects. Settings → startServer → one `listening on` line;
 * SIGTERM/SIGINT close gracefully and exit 0. A bad setting or a failed start exits 1.
 * @module
 */
import { pino } from 'pino'
import { ConfigError, loadConfig, usage, wantsHelp } from './config.js'
import { NetworkUnavailableError } from './network.js'
import { startServer } from './start-server.js'

async function main(): Promise<void> {
  if (wantsHelp()) {
    process.stdout.write(`${usage()}\n`)
    return
  }
  const config = loadConfig()
  const logger = pino({ level: config.logLevel })
  const showKey = (key: string): void => void process.stdout.write(adminKeyBanner(key))
  const server = await startServer(config, { logger, onGeneratedAdminKey: showKey })

  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))

  process.stdout.write(`Switchboard (${config.network} network) listening on ${server.url}\n`)
}

/** A system error (EADDRINUSE, EACCES, ECONNREFUSED…) says enough in its message; anything else shows its stack. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  return typeof (err as NodeJS.ErrnoException).code === 'string' ? err.message : (err.stack ?? err.message)
}

function adminKeyBanner(key: string): string {
  const rule = '='.repeat(72)
  return [
    rule,
    'A master admin key was generated (first start without SWITCHBOARD_ADMIN_KEY).',
    'It is shown this once; store it now:',
    '',
    `    ${key}`,
    '',
    rule,
    '',
  ].join('\n')
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof NetworkUnavailableError) process.stderr.write(`${err.message}\n`)
  else process.stderr.write(`Switchboard failed to start: ${describe(err)}\n`)
  process.exit(1)
})
