import { expect } from 'chai'
import { ConfigError, flagOf, loadConfig, usage, wantsHelp } from '../src/config.js'

const CWD = '/srv/switchboard'
const load = (env: Record<string, string> = {}, argv: string[] = []) => loadConfig({ env, argv, cwd: CWD })
const fails = (env: Record<string, string>, argv: string[] = []): string => {
  try {
    load(env, argv)
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError)
    return (err as Error).message
  }
  throw new Error('expected a ConfigError')
}

const KEY = `wamk_${'a'.repeat(32)}`

describe('loadConfig()', () => {
  it('has the documented defaults', () => {
    expect(load()).to.deep.equal({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/switchboard/data',
      store: 'sqlite:///srv/switchboard/data/switchboard.sqlite',
      network: 'whatsapp',
      mediaDir: '/srv/switchboard/data/media',
      allowPrivateMediaUrls: false,
      rateLimits: { general: 100, messages: 30, sessions: 10 },
      broadcastDelayMs: { min: 1000, max: 3000 },
      webhookRetryBaseMs: 1000,
      webhookRetryMaxMs: 3_600_000,
      scheduleGraceMs: 3_600_000,
      sandboxQrDelayMs: 1000,
      sandboxConnectDelayMs: 200,
      baileysBrowser: 'Switchboard',
      trustProxy: false,
      logLevel: 'info',
    })
  })

  it('reads every variable', () => {
    const config = load({
      PORT: '8080',
      HOST: '127.0.0.1',
      SWITCHBOARD_DATA_DIR: 'var/sb',
      SWITCHBOARD_STORE: 'redis://localhost:6379',
      SWITCHBOARD_NETWORK: 'sandbox',
      SWITCHBOARD_ADMIN_KEY: KEY,
      SWITCHBOARD_MEDIA_DIR: '/media',
      SWITCHBOARD_ALLOW_PRIVATE_MEDIA_URLS: 'true',
      SWITCHBOARD_RATE_LIMIT_GENERAL: '500',
      SWITCHBOARD_RATE_LIMIT_MESSAGES: '100',
      SWITCHBOARD_RATE_LIMIT_SESSIONS: '50',
      SWITCHBOARD_BROADCAST_DELAY_MS: '0,10',
      SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '10',
      SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: '20',
      SWITCHBOARD_SCHEDULE_GRACE_MS: '0',
      SWITCHBOARD_SANDBOX_QR_DELAY_MS: '0',
      SWITCHBOARD_SANDBOX_CONNECT_DELAY_MS: '5',
      SWITCHBOARD_BAILEYS_BROWSER: 'Acme Support',
      SWITCHBOARD_TRUST_PROXY: '1',
      LOG_LEVEL: 'debug',
    })
    expect(config).to.deep.equal({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/switchboard/var/sb',
      store: 'redis://localhost:6379',
      network: 'sandbox',
      adminKey: KEY,
      mediaDir: '/media',
      allowPrivateMediaUrls: true,
      rateLimits: { general: 500, messages: 100, sessions: 50 },
      broadcastDelayMs: { min: 0, max: 10 },
      webhookRetryBaseMs: 10,
      webhookRetryMaxMs: 20,
      scheduleGraceMs: 0,
      sandboxQrDelayMs: 0,
      sandboxConnectDelayMs: 5,
      baileysBrowser: 'Acme Support',
      trustProxy: true,
      logLevel: 'debug',
    })
  })

  it('derives the store and media defaults from the data dir', () => {
    const config = load({ SWITCHBOARD_DATA_DIR: '/data/x' })
    expect(config.store).to.equal('sqlite:///data/x/switchboard.sqlite')
    expect(config.mediaDir).to.equal('/data/x/media')
  })

  it('accepts every store form and every network', () => {
    for (const store of ['memory', 'sqlite://./db.sqlite', 'redis://h:1', 'rediss://h:1', 'postgres://u@h/db', 'postgresql://u@h/db']) {
      expect(load({ SWITCHBOARD_STORE: store }).store).to.equal(store)
    }
    for (const network of ['whatsapp', 'sandbox', 'sandbox-wire']) {
      expect(load({ SWITCHBOARD_NETWORK: network }).network).to.equal(network)
    }
  })

  it('accepts a single broadcast delay as min = max, and spaces around the comma', () => {
    expect(load({ SWITCHBOARD_BROADCAST_DELAY_MS: '500' }).broadcastDelayMs).to.deep.equal({ min: 500, max: 500 })
    expect(load({ SWITCHBOARD_BROADCAST_DELAY_MS: ' 1 , 2 ' }).broadcastDelayMs).to.deep.equal({ min: 1, max: 2 })
  })

  it('accepts true/false/1/0 for booleans', () => {
    expect(load({ SWITCHBOARD_ALLOW_PRIVATE_MEDIA_URLS: 'false' }).allowPrivateMediaUrls).to.equal(false)
    expect(load({ SWITCHBOARD_ALLOW_PRIVATE_MEDIA_URLS: '1' }).allowPrivateMediaUrls).to.equal(true)
    expect(load({ SWITCHBOARD_TRUST_PROXY: '0' }).trustProxy).to.equal(false)
  })

  it('treats an empty variable as unset', () => {
    expect(load({ PORT: '', SWITCHBOARD_ADMIN_KEY: '' })).to.include({ port: 3000 }).and.not.have.property('adminKey')
  })

  it('accepts port 0 (a free port)', () => {
    expect(load({ PORT: '0' }).port).to.equal(0)
  })

  describe('flags', () => {
    it('every variable has a --kebab-case flag', () => {
      expect(flagOf('PORT')).to.equal('--port')
      expect(flagOf('SWITCHBOARD_DATA_DIR')).to.equal('--data-dir')
      expect(flagOf('SWITCHBOARD_SANDBOX_QR_DELAY_MS')).to.equal('--sandbox-qr-delay-ms')
      expect(flagOf('LOG_LEVEL')).to.equal('--log-level')
      const config = load({}, [
        '--port', '9', '--host', '::1', '--data-dir', '/d', '--store', 'memory', '--network', 'sandbox', '--admin-key', KEY,
        '--media-dir', '/m', '--allow-private-media-urls', 'true', '--rate-limit-general', '1', '--rate-limit-messages', '2',
        '--rate-limit-sessions', '3', '--broadcast-delay-ms', '4,5', '--webhook-retry-base-ms', '6', '--webhook-retry-max-ms', '7',
        '--schedule-grace-ms', '8', '--sandbox-qr-delay-ms', '9', '--sandbox-connect-delay-ms', '10', '--baileys-browser', 'B',
        '--trust-proxy', 'true', '--log-level', 'warn',
      ])
      expect(config).to.deep.equal({
        port: 9, host: '::1', dataDir: '/d', store: 'memory', network: 'sandbox', adminKey: KEY, mediaDir: '/m',
        allowPrivateMediaUrls: true, rateLimits: { general: 1, messages: 2, sessions: 3 }, broadcastDelayMs: { min: 4, max: 5 },
        webhookRetryBaseMs: 6, webhookRetryMaxMs: 7, scheduleGraceMs: 8, sandboxQrDelayMs: 9, sandboxConnectDelayMs: 10,
        baileysBrowser: 'B', trustProxy: true, logLevel: 'warn',
      })
    })

    it('win over variables', () => {
      expect(load({ PORT: '1', SWITCHBOARD_NETWORK: 'whatsapp' }, ['--port=2', '--network', 'sandbox'])).to.include({ port: 2, network: 'sandbox' })
    })

    it('take --flag=value and --flag value', () => {
      expect(load({}, ['--host=a', '--log-level', 'error'])).to.include({ host: 'a', logLevel: 'error' })
    })

    it('a boolean flag alone means true', () => {
      expect(load({}, ['--allow-private-media-urls', '--trust-proxy'])).to.include({ allowPrivateMediaUrls: true, trustProxy: true })
    })

    it('an unknown flag stops the start', () => {
      expect(fails({}, ['--prot', '1'])).to.equal('Unknown option --prot; see --help')
    })

    it('a flag with no value stops the start', () => {
      expect(fails({}, ['--port'])).to.equal('Missing value for --port')
      expect(fails({}, ['--port', '--host', 'x'])).to.equal('Missing value for --port')
    })

    it('a stray argument stops the start', () => {
      expect(fails({}, ['sandbox'])).to.equal('Unexpected argument sandbox; see --help')
    })

    it('an invalid flag value names the variable and the flag', () => {
      expect(fails({}, ['--port', 'x'])).to.equal('Invalid setting PORT (--port): must be an integer between 0 and 65535')
    })
  })

  describe('an invalid setting names the variable and the rule', () => {
    const cases: [string, string[], string][] = [
      ['PORT', ['abc', '-1', '65536', '1.5', '80x'], 'must be an integer between 0 and 65535'],
      ['HOST', ['   '], 'must not be empty'],
      ['SWITCHBOARD_DATA_DIR', [' '], 'must not be empty'],
      ['SWITCHBOARD_STORE', ['mysql://x', 'sqlite://', 'Memory', 'file.sqlite'], 'must be memory or a sqlite://, redis://, rediss://, postgres:// or postgresql:// URI'],
      ['SWITCHBOARD_NETWORK', ['baileys', 'SANDBOX'], 'must be one of: whatsapp, sandbox, sandbox-wire'],
      ['SWITCHBOARD_ADMIN_KEY', ['wask_' + 'a'.repeat(32), 'wamk_short', `wamk_${'a'.repeat(31)}`, `wamk_${'a'.repeat(31)} `, `wamk_${'a'.repeat(31)}!`], 'must be wamk_ followed by at least 32 letters, digits, - or _'],
      ['SWITCHBOARD_MEDIA_DIR', [' '], 'must not be empty'],
      ['SWITCHBOARD_ALLOW_PRIVATE_MEDIA_URLS', ['yes', 'TRUE', '2'], 'must be true or false'],
      ['SWITCHBOARD_RATE_LIMIT_GENERAL', ['0', '-5', 'ten', '1.5'], 'must be a positive integer'],
      ['SWITCHBOARD_RATE_LIMIT_MESSAGES', ['0', 'x'], 'must be a positive integer'],
      ['SWITCHBOARD_RATE_LIMIT_SESSIONS', ['0', 'x'], 'must be a positive integer'],
      ['SWITCHBOARD_BROADCAST_DELAY_MS', ['3000,1000', 'a,b', '1,2,3', '-1,5', ','], 'must be min,max in milliseconds (non-negative integers, min <= max)'],
      ['SWITCHBOARD_WEBHOOK_RETRY_BASE_MS', ['0', 'x'], 'must be a positive integer'],
      ['SWITCHBOARD_WEBHOOK_RETRY_MAX_MS', ['0', 'x'], 'must be a positive integer'],
      ['SWITCHBOARD_SCHEDULE_GRACE_MS', ['-1', 'x'], 'must be a non-negative integer'],
      ['SWITCHBOARD_SANDBOX_QR_DELAY_MS', ['-1', '1e3'], 'must be a non-negative integer'],
      ['SWITCHBOARD_SANDBOX_CONNECT_DELAY_MS', ['-1', 'x'], 'must be a non-negative integer'],
      ['SWITCHBOARD_BAILEYS_BROWSER', [' ', 'x'.repeat(65)], 'must be 1 to 64 characters'],
      ['SWITCHBOARD_TRUST_PROXY', ['on'], 'must be true or false'],
      ['LOG_LEVEL', ['verbose', 'INFO'], 'must be one of: fatal, error, warn, info, debug, trace, silent'],
    ]
    for (const [variable, values, rule] of cases) {
      it(variable, () => {
        for (const value of values) expect(fails({ [variable]: value }), value).to.equal(`Invalid setting ${variable}: ${rule}`)
      })
    }

    it('SWITCHBOARD_WEBHOOK_RETRY_MAX_MS below the base', () => {
      expect(fails({ SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '5000', SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: '1000' })).to.equal(
        'Invalid setting SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: must be at least SWITCHBOARD_WEBHOOK_RETRY_BASE_MS',
      )
    })

    it('covers every variable of the usage text', () => {
      const listed = usage().match(/^ {2}([A-Z_]+) /gm)!.map((l) => l.trim())
      expect(listed).to.have.members(cases.map(([variable]) => variable))
    })
  })
})

describe('usage() and wantsHelp()', () => {
  it('lists every variable with its flag and default', () => {
    const text = usage()
    expect(text).to.match(/PORT +--port +default 3000/)
    expect(text).to.match(/SWITCHBOARD_STORE +--store +default sqlite:\/\/<data dir>\/switchboard.sqlite/)
    expect(text).to.match(/SWITCHBOARD_ADMIN_KEY +--admin-key +default \(generated at first start\)/)
  })

  it('sees --help and -h', () => {
    expect(wantsHelp(['--help'])).to.equal(true)
    expect(wantsHelp(['-h'])).to.equal(true)
    expect(wantsHelp(['--port', '1'])).to.equal(false)
  })
})
