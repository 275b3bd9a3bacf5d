import type { CpuInfo } from 'node:os'
import { createTestClock, T0 } from '@switchboard/core/testing'
import { expect } from 'chai'
import { classify, cpuSampler, HEALTH_THRESHOLDS } from '../src/health.js'
import { call, startApp, type TestApp } from './helpers/start-app.js'

const cpu = (busy: number, idle: number): CpuInfo => ({ model: 'Test CPU', speed: 1000, times: { user: busy, nice: 0, sys: 0, idle, irq: 0 } })

describe('GET /health', () => {
  let app: TestApp
  beforeEach(async () => {
    app = await startApp({ clock: createTestClock(T0) })
  })
  afterEach(() => app.close())

  it('needs no key and answers the host figures and the gateway counts', async () => {
    const res = await call(`${app.url}/health`)
    expect(res.status).to.equal(200)
    const body = res.body
    expect(body.success).to.equal(true)
    expect(body.status).to.be.oneOf(['healthy', 'warning', 'critical'])
    expect(body.timestamp).to.equal('2026-01-31T09:15:02.123Z')
    expect(body.cpu).to.have.keys(['usage', 'cores', 'model'])
    expect(body.cpu.cores).to.be.above(0)
    expect(body.memory).to.have.keys(['total', 'used', 'free', 'usagePercent'])
    expect(body.memory.used).to.be.at.most(body.memory.total)
    expect(body.disk).to.have.keys(['total', 'free', 'usagePercent'])
    expect(body.disk.total).to.be.above(0)
    expect(body.platform).to.equal(process.platform)
    expect(body.uptime).to.be.a('number')
    expect(body.nodeVersion).to.equal(process.version)
    expect(body.loadAverage).to.have.length(3)
    expect(body.sessions).to.deep.equal({ total: 2, byState: { ready: 1, qr_ready: 1 } })
    expect(body.webhooks).to.deep.equal({ pending: 3, deadLettered: 0 })
    expect(body.network).to.equal('sandbox')
    expect(body.store).to.equal('memory')
    expect(res.headers.get('X-RateLimit-Limit')).to.equal(null)
    expect(app.gateway.calls).to.deep.equal([])
  })

  it('answers 503 critical when the gateway cannot report', async () => {
    app.gateway.statsFail = true
    const res = await call(`${app.url}/health`)
    expect(res.status).to.equal(503)
    expect(res.body.status).to.equal('critical')
    expect(res.body.issues).to.include('gateway statistics are unavailable')
  })
})

describe('classify()', () => {
  it('is healthy under every warning threshold', () => {
    expect(classify({ cpu: 79.9, memory: 84.9, disk: 84.9 })).to.deep.equal({ status: 'healthy', issues: [] })
  })

  it('is warning at a warning threshold, naming the figure', () => {
    expect(classify({ cpu: 80, memory: 10, disk: 10 })).to.deep.equal({
      status: 'warning',
      issues: ['cpu usage 80% is at or above the warning threshold of 80%'],
    })
    expect(classify({ cpu: 1, memory: 85, disk: null }).status).to.equal('warning')
    expect(classify({ cpu: 1, memory: 1, disk: 85 }).status).to.equal('warning')
  })

  it('is critical at any critical threshold, whatever the others', () => {
    expect(classify({ cpu: 95, memory: 1, disk: 1 }).status).to.equal('critical')
    expect(classify({ cpu: 90, memory: 95, disk: 1 }).status).to.equal('critical')
    const both = classify({ cpu: 1, memory: 90, disk: 99 })
    expect(both.status).to.equal('critical')
    expect(both.issues).to.have.length(2)
  })

  it('documents its thresholds', () => {
    expect(HEALTH_THRESHOLDS).to.deep.equal({
      cpu: { warning: 80, critical: 95 },
      memory: { warning: 85, critical: 95 },
      disk: { warning: 85, critical: 95 },
    })
  })
})

describe('cpuSampler()', () => {
  it('measures the busy share since the previous call, without waiting', () => {
    const samples = [
      [cpu(100, 100), cpu(100, 100)],
      [cpu(150, 150), cpu(190, 110)],
      [cpu(150, 250), cpu(190, 210)],
    ]
    let i = 0
    const sample = cpuSampler(() => samples[Math.min(i++, samples.length - 1)]!)
    expect(sample()).to.equal(70)
    expect(sample()).to.equal(0)
  })

  it('repeats the last figure when no time has passed', () => {
    const samples = [[cpu(0, 0)], [cpu(30, 10)], [cpu(30, 10)]]
    let i = 0
    const sample = cpuSampler(() => samples[Math.min(i++, samples.length - 1)]!)
    expect(sample()).to.equal(75)
    expect(sample()).to.equal(75)
  })
})
