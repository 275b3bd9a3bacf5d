/**
 * GET /health: resource use of the host and the gateway's own figures, for load balancers and
 * people. Needs no key and is not rate-limited.
 * @module
 */
import { statfs } from 'node:fs/promises'
import os from 'node:os'
import { dirname } from 'node:path'
import type { Clock } from '@switchboard/core'
import type { GatewayStats } from './gateway-port.js'

export type HealthStatus = 'healthy' | 'warning' | 'critical'

/**
 * Percent thresholds: any figure at or above `warning` makes the status `warning`, at or above
 * `critical` makes it `critical`.
 */
export const HEALTH_THRESHOLDS = {
  cpu: { warning: 80, critical: 95 },
  memory: { warning: 85, critical: 95 },
  disk: { warning: 85, critical: 95 },
} as const

export interface Usage {
  cpu: number
  memory: number
  /** Null when the data folder's file system could not be read. */
  disk: number | null
}

/** The status for the given percentages, and one line per figure over a threshold. */
export function classify(usage: Usage): { status: HealthStatus; issues: string[] } {
  let status: HealthStatus = 'healthy'
  const issues: string[] = []
  for (const name of ['cpu', 'memory', 'disk'] as const) {
    const value = usage[name]
    if (value === null) continue
    const limits = HEALTH_THRESHOLDS[name]
    const level = value >= limits.critical ? 'critical' : value >= limits.warning ? 'warning' : undefined
    if (level === undefined) continue
    issues.push(`${name} usage ${value}% is at or above the ${level} threshold of ${limits[level]}%`)
    if (level === 'critical' || status === 'healthy') status = level
  }
  return { status, issues }
}

interface CpuTimes {
  idle: number
  total: number
}

/**
 * CPU use since the previous call, from `os.cpus()` time counters: no sampling pause in the
 * request. Calls too close together to measure repeat the last figure.
 */
export function cpuSampler(readCpus: () => os.CpuInfo[] = os.cpus): () => number {
  const read = (): CpuTimes =>
    readCpus().reduce(
      (sum, cpu) => {
        const { user, nice, sys, idle, irq } = cpu.times
        return { idle: sum.idle + idle, total: sum.total + user + nice + sys + idle + irq }
      },
      { idle: 0, total: 0 },
    )
  let last = read()
  let lastUsage = 0
  return () => {
    const now = read()
    const total = now.total - last.total
    if (total > 0) {
      lastUsage = round1(100 * (1 - (now.idle - last.idle) / total))
      last = now
    }
    return lastUsage
  }
}

export interface HealthDeps {
  stats: () => Promise<GatewayStats>
  /** The folder whose file system is reported as `disk`. */
  dataDir: string
  clock: Clock
  cpuUsage: () => number
}

/** The body of GET /health and whether the gateway could answer (else the route answers 503). */
export async function healthReport(deps: HealthDeps): Promise<{ ok: boolean; body: Record<string, unknown> }> {
  const cpus = os.cpus()
  const totalMem = os.totalmem()
  const usedMem = totalMem - os.freemem()
  const memoryPercent = round1((100 * usedMem) / totalMem)
  const cpuPercent = deps.cpuUsage()
  const disk = await diskUsage(deps.dataDir)
  const { status, issues } = classify({ cpu: cpuPercent, memory: memoryPercent, disk: disk?.usagePercent ?? null })
  const gateway = await deps.stats().then(
    (stats) => ({ sessions: stats.sessions, webhooks: stats.webhooks, network: stats.network, store: stats.store }),
    () => undefined,
  )
  const body: Record<string, unknown> = {
    success: true,
    status: gateway === undefined ? 'critical' : status,
    timestamp: new Date(deps.clock.now()).toISOString(),
    issues: gateway === undefined ? [...issues, 'gateway statistics are unavailable'] : issues,
    cpu: { usage: cpuPercent, cores: cpus.length, model: cpus[0]?.model.trim() ?? 'unknown' },
    memory: { total: totalMem, used: usedMem, free: totalMem - usedMem, usagePercent: memoryPercent },
    disk: disk ?? { total: null, free: null, usagePercent: null },
    platform: os.platform(),
    arch: os.arch(),
    uptime: Math.round(process.uptime()),
    systemUptime: Math.round(os.uptime()),
    nodeVersion: process.version,
    loadAverage: os.loadavg().map(round2),
    ...gateway,
  }
  return { ok: gateway !== undefined, body }
}

async function diskUsage(dir: string): Promise<{ total: number; free: number; usagePercent: number } | null> {
  for (let path = dir; ; path = dirname(path)) {
    try {
      const fs = await statfs(path)
      const total = fs.blocks * fs.bsize
      const used = (fs.blocks - fs.bfree) * fs.bsize
      const free = fs.bavail * fs.bsize
      // As df: the share of what non-root users can use.
      return { total, free, usagePercent: used + free === 0 ? 0 : round1((100 * used) / (used + free)) }
    } catch {
      // The data folder may not exist yet: report the file system it will be created on.
      if (dirname(path) === path) return null
    }
  }
}

const round1 = (n: number): number => Math.round(n * 10) / 10
const round2 = (n: number): number => Math.round(n * 100) / 100
