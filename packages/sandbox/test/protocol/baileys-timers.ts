/**
 * Baileys leaves timers behind when a socket ends: a 30-second guard on every pre-key upload
 * (`Promise.race` with a `setTimeout` it never clears) and 60-second timeouts on queries still in
 * flight. They would hold the test process open for a minute after the last test, so this tracks
 * the timers Baileys creates and unrefs those still armed when the suite ends.
 */
import { createHook } from 'node:async_hooks'

const armed = new Map<number, { unref(): void }>()

createHook({
  init(id, type, _trigger, resource) {
    if (type !== 'Timeout') return
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 30
    const stack = new Error().stack ?? ''
    Error.stackTraceLimit = limit
    if (stack.includes('@whiskeysockets/baileys')) armed.set(id, resource as { unref(): void })
  },
  destroy(id) {
    armed.delete(id)
  },
}).enable()

after(() => {
  for (const timer of armed.values()) timer.unref()
  armed.clear()
})
