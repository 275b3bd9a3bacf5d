#!/usr/bin/env node
import { runDemo } from './index.js'

runDemo().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
})
