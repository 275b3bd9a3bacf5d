/**
 * Loads recorded Baileys payloads from test/fixtures/baileys: Buffers in BufferJSON form,
 * `{ "$boom": { message, statusCode } }` for Boom errors and `{ "$date": iso }` for Dates.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Boom } from '@hapi/boom'
import { BufferJSON } from '@whiskeysockets/baileys'

const DIR = fileURLToPath(new URL('../../../fixtures/baileys/', import.meta.url))

export function reviveFixture(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>
    if (v['$boom']) {
      const { message, statusCode } = v['$boom'] as { message: string; statusCode: number }
      return new Boom(message, { statusCode })
    }
    if (typeof v['$date'] === 'string') return new Date(v['$date'])
    if (v['type'] === 'Buffer' && typeof v['data'] === 'string') return BufferJSON.reviver(_key, value)
  }
  return value
}

/** A fresh copy of a fixture file (each call parses again, so tests may mutate it). */
export function fixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(DIR + name, 'utf8'), reviveFixture) as T
}

export interface ScriptStep {
  event: string
  data: unknown
}
