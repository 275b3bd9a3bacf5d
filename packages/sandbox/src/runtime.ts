/**
 * What the sandbox's parts share: the world, its store, time, ids, timings and faults, and the
 * one way to finish a world operation ({@link Runtime.commit}).
 * @module
 */
import type { Clock, Logger, NewId } from '@switchboard/core'
import type { Faults } from './faults.js'
import type { WorldStore } from './persistence/world-store.js'
import type { World } from './world/world.js'

/** Delays of the simulated network, in milliseconds. */
export interface SandboxTimings {
  /** Time in `starting` before a new session's first QR. */
  qrDelayMs: number
  /** Time in `connecting` after a scan, a restore or a dropped connection. */
  connectDelayMs: number
  /** A new QR payload replaces the previous one this often. */
  qrRotateMs: number
  /** How long a QR payload can be scanned. */
  qrTtlMs: number
  /** How long a pairing code can be entered. */
  codeTtlMs: number
  /** How long an unanswered call rings before it times out. */
  ringMs: number
}

export class Runtime {
  constructor(
    readonly world: World,
    readonly store: WorldStore,
    readonly clock: Clock,
    readonly newId: NewId,
    readonly logger: Logger,
    readonly timings: SandboxTimings,
    readonly faults: Faults,
  ) {}

  /** Persists what the world changed, then lets the doors hear what it caused. */
  async commit(): Promise<void> {
    const { changes, outbox } = this.world.take()
    await this.store.write(changes)
    this.world.deliver(outbox)
  }
}
