/**
 * A pino-shaped logger port. Log the object first, errors under `err`:
 * `logger.warn({ sessionId, err }, 'send failed')`.
 * @module
 */
export interface LogFn {
  (obj: object, msg?: string): void
  (msg: string): void
}

export interface Logger {
  level: string
  trace: LogFn
  debug: LogFn
  info: LogFn
  warn: LogFn
  error: LogFn
  fatal: LogFn
  child(bindings: Record<string, unknown>): Logger
}

const noop: LogFn = () => {}

/** The default logger of core: says nothing. */
export const silentLogger: Logger = {
  level: 'silent',
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  child: () => silentLogger,
}
