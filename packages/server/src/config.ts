/**
 * Server settings: the only reader of `process.env`. Every setting is an environment variable and a
 * `--kebab-case` flag (flags win), parsed with zod; an invalid one stops the start with a message
 * naming the variable and the rule.
 * @module
 */
import { resolve } from 'node:path'
import { z } from 'zod'

export type NetworkKind = 'whatsapp' | 'sandbox' | 'sandbox-wire'
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export interface ServerConfig {
  /** @default 3000 (0 picks a free port) */
  port: number
  /** @default '0.0.0.0' */
  host: string
  /** Absolute. @default './data' */
  dataDir: string
  /** Keyv URI or `memory`. @default 'sqlite://<dataDir>/switchboard.sqlite' */
  store: string
  /** @default 'whatsapp' */
  network: NetworkKind
  /** The master admin key; absent: the gateway generates one at first start. */
  adminKey?: string
  /** Absolute. @default '<dataDir>/media' */
  mediaDir: string
  /** @default false */
  allowPrivateMediaUrls: boolean
  /** Limits of the master admin key and its sessions. @default { general: 100, messages: 30, sessions: 10 } */
  rateLimits: { general: number; messages: number; sessions: number }
  /** @default { min: 1000, max: 3000 } */
  broadcastDelayMs: { min: number; max: number }
  /** @default 1000 */
  webhookRetryBaseMs: number
  /** @default 3600000 */
  webhookRetryMaxMs: number
  /** @default 3600000 */
  scheduleGraceMs: number
  /** @default 1000 */
  sandboxQrDelayMs: number
  /** @default 200 */
  sandboxConnectDelayMs: number
  /** Device name shown under the phone's linked devices. @default 'Switchboard' */
  baileysBrowser: string
  /** Trust `X-Forwarded-For` for the client address (behind a reverse proxy). @default false */
  trustProxy: boolean
  /** @default 'info' */
  logLevel: LogLevel
}

/** A setting that failed its rule, or a malformed command line. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Raw = Partial<Record<string, string>>

interface Setting {
  env: string
  /** Default as text, given the settings already parsed. */
  fallback: (parsed: Record<string, unknown>) => string | undefined
  schema: z.ZodType
  rule: string
  /** The flag alone means `true`. */
  boolean?: true
  /** Shown by `--help`. */
  meaning: string
}

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max))
const boolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')
const nonEmpty = z.string().trim().min(1)
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
const STORE_URI = /^(memory|(sqlite|redis|rediss|postgres|postgresql):\/\/.+)$/
const BROADCAST_DELAY = z
  .string()
  .regex(/^\s*\d+\s*(,\s*\d+\s*)?$/)
  .transform((v) => v.split(',').map(Number))
  .transform(([min, max]) => ({ min: min!, max: max ?? min! }))
  .refine(({ min, max }) => Number.isSafeInteger(max) && min <= max)

type Check = Pick<Setting, 'schema' | 'rule'> & { boolean?: true }
const POSITIVE: Check = { schema: integer(1), rule: 'must be a positive integer' }
const NON_NEGATIVE: Check = { schema: integer(0), rule: 'must be a non-negative integer' }
const BOOLEAN: Check = { schema: boolean, rule: 'must be true or false', boolean: true }
const NOT_EMPTY: Check = { schema: nonEmpty, rule: 'must not be empty' }

function setting(
  env: string,
  fallback: string | Setting['fallback'] | undefined,
  check: Check,
  meaning: string,
): Setting {
  return { env, fallback: typeof fallback === 'function' ? fallback : () => fallback, meaning, ...check }
}

/** The settings one by one (the three rate limits are grouped in {@link ServerConfig.rateLimits}). */
type SettingKey =
  | Exclude<keyof ServerConfig, 'rateLimits'>
  | 'rateLimitGeneral'
  | 'rateLimitMessages'
  | 'rateLimitSessions'

/** In dependency order: `dataDir` comes before the defaults that use it. */
function settings(cwd: string): Record<SettingKey, Setting> {
  const path: Check = { schema: nonEmpty.transform((p) => resolve(cwd, p)), rule: 'must not be empty' }
  const inDataDir = (name: string) => (parsed: Record<string, unknown>) => `${String(parsed.dataDir)}${name}`
  return {
    port: setting('PORT', '3000', { schema: integer(0, 65535), rule: 'must be an integer between 0 and 65535' }, 'HTTP port'),
    host: setting('HOST', '0.0.0.0', NOT_EMPTY, 'listen address'),
    dataDir: setting('SWITCHBOARD_DATA_DIR', './data', path, 'folder for the embedded store and media'),
    store: setting(
      'SWITCHBOARD_STORE',
      (parsed) => `sqlite://${inDataDir('/switchboard.sqlite')(parsed)}`,
      { schema: nonEmpty.regex(STORE_URI), rule: 'must be memory or a sqlite://, redis://, rediss://, postgres:// or postgresql:// URI' },
      'Keyv connection URI, or memory',
    ),
    network: setting(
      'SWITCHBOARD_NETWORK',
      'whatsapp',
      { schema: z.enum(['whatsapp', 'sandbox', 'sandbox-wire']), rule: 'must be one of: whatsapp, sandbox, sandbox-wire' },
      'whatsapp (the real network), sandbox (simulated), sandbox-wire (simulated, over the WhatsApp protocol)',
    ),
    adminKey: setting(
      'SWITCHBOARD_ADMIN_KEY',
      undefined,
      { schema: z.string().regex(/^wamk_[A-Za-z0-9_-]{32,}$/), rule: 'must be wamk_ followed by at least 32 letters, digits, - or _' },
      'the master admin key (generated at first start when absent)',
    ),
    mediaDir: setting('SWITCHBOARD_MEDIA_DIR', inDataDir('/media'), path, 'the only folder file-path media may be read from'),
    allowPrivateMediaUrls: setting(
      'SWITCHBOARD_ALLOW_PRIVATE_MEDIA_URLS',
      'false',
      BOOLEAN,
      'allow media URLs that resolve to loopback or private addresses',
    ),
    rateLimitGeneral: setting('SWITCHBOARD_RATE_LIMIT_GENERAL', '100', POSITIVE, 'requests per minute (master admin key)'),
    rateLimitMessages: setting('SWITCHBOARD_RATE_LIMIT_MESSAGES', '30', POSITIVE, 'messages per minute per session (master admin key)'),
    rateLimitSessions: setting('SWITCHBOARD_RATE_LIMIT_SESSIONS', '10', POSITIVE, 'session creations per hour (master admin key)'),
    broadcastDelayMs: setting(
      'SWITCHBOARD_BROADCAST_DELAY_MS',
      '1000,3000',
      { schema: BROADCAST_DELAY, rule: 'must be min,max in milliseconds (non-negative integers, min <= max)' },
      'min,max random spacing between the messages of a broadcast',
    ),
    webhookRetryBaseMs: setting('SWITCHBOARD_WEBHOOK_RETRY_BASE_MS', '1000', POSITIVE, 'first retry delay of a failed webhook delivery'),
    webhookRetryMaxMs: setting('SWITCHBOARD_WEBHOOK_RETRY_MAX_MS', '3600000', POSITIVE, 'cap on one webhook retry delay'),
    scheduleGraceMs: setting('SWITCHBOARD_SCHEDULE_GRACE_MS', '3600000', NON_NEGATIVE, 'how late a scheduled message may still go out'),
    sandboxQrDelayMs: setting('SWITCHBOARD_SANDBOX_QR_DELAY_MS', '1000', NON_NEGATIVE, 'sandbox: time in starting before the QR'),
    sandboxConnectDelayMs: setting('SWITCHBOARD_SANDBOX_CONNECT_DELAY_MS', '200', NON_NEGATIVE, 'sandbox: time in connecting'),
    baileysBrowser: setting(
      'SWITCHBOARD_BAILEYS_BROWSER',
      'Switchboard',
      { schema: nonEmpty.max(64), rule: 'must be 1 to 64 characters' },
      "device name shown under the phone's linked devices",
    ),
    trustProxy: setting('SWITCHBOARD_TRUST_PROXY', 'false', BOOLEAN, 'take the client address from X-Forwarded-For (behind a proxy)'),
    logLevel: setting(
      'LOG_LEVEL',
      'info',
      { schema: z.enum(LOG_LEVELS), rule: `must be one of: ${LOG_LEVELS.join(', ')}` },
      'pino log level',
    ),
  }
}

/** `SWITCHBOARD_DATA_DIR` → `--data-dir`, `PORT` → `--port`. */
export function flagOf(env: string): string {
  return `--${env.replace(/^SWITCHBOARD_/, '').toLowerCase().replaceAll('_', '-')}`
}

export interface ConfigSources {
  /** @default process.env */
  env?: Raw
  /** Command-line arguments after the script. @default process.argv.slice(2) */
  argv?: readonly string[]
  /** Base of relative paths. @default process.cwd() */
  cwd?: string
}

/** Reads, validates and completes the settings. Throws {@link ConfigError}. */
export function loadConfig(sources: ConfigSources = {}): ServerConfig {
  const env = sources.env ?? process.env
  const table = Object.entries(settings(sources.cwd ?? process.cwd()))
  const flags = parseFlags(sources.argv ?? process.argv.slice(2), table.map(([, s]) => s))
  const parsed: Record<string, unknown> = {}
  for (const [key, setting] of table) {
    const fromFlag = flags.get(setting.env)
    const fromEnv = env[setting.env] === '' ? undefined : env[setting.env]
    const text = fromFlag ?? fromEnv ?? setting.fallback(parsed)
    if (text === undefined) continue
    const result = setting.schema.safeParse(text)
    if (!result.success) {
      const via = fromFlag === undefined ? '' : ` (${flagOf(setting.env)})`
      throw new ConfigError(`Invalid setting ${setting.env}${via}: ${setting.rule}`)
    }
    parsed[key] = result.data
  }
  const { rateLimitGeneral, rateLimitMessages, rateLimitSessions, ...rest } = parsed
  const rateLimits = { general: rateLimitGeneral, messages: rateLimitMessages, sessions: rateLimitSessions }
  const config = { ...rest, rateLimits } as ServerConfig
  if (config.webhookRetryMaxMs < config.webhookRetryBaseMs) {
    throw new ConfigError(
      'Invalid setting SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: must be at least SWITCHBOARD_WEBHOOK_RETRY_BASE_MS',
    )
  }
  return config
}

function parseFlags(argv: readonly string[], table: Setting[]): Map<string, string> {
  const byFlag = new Map(table.map((s) => [flagOf(s.env), s]))
  const values = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const match = /^(--[a-z0-9-]+)(?:=(.*))?$/s.exec(arg)
    if (match === null) throw new ConfigError(`Unexpected argument ${arg}; see --help`)
    const [, flag, inline] = match as unknown as [string, string, string | undefined]
    const setting = byFlag.get(flag)
    if (setting === undefined) throw new ConfigError(`Unknown option ${flag}; see --help`)
    let value = inline
    if (value === undefined) {
      const next = argv[i + 1]
      if (setting.boolean && (next === undefined || next.startsWith('--'))) value = 'true'
      else if (next === undefined || next.startsWith('--')) throw new ConfigError(`Missing value for ${flag}`)
      else value = argv[++i]!
    }
    values.set(setting.env, value)
  }
  return values
}

/** True when the command line asks for the usage text. */
export function wantsHelp(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.includes('--help') || argv.includes('-h')
}

/** The usage text: every setting, its flag and its default. */
export function usage(): string {
  const lines = [
    'Usage: npm start -- [--flag value ...]',
    '',
    'Every setting is an environment variable or a flag (flags win):',
    '',
  ]
  for (const setting of Object.values(settings('.'))) {
    const fallback = setting.fallback({ dataDir: '<data dir>' }) ?? '(generated at first start)'
    const flag = flagOf(setting.env)
    lines.push(`  ${setting.env.padEnd(38)} ${flag.padEnd(28)} default ${fallback}`, `      ${setting.meaning}`)
  }
  return lines.join('\n')
}
