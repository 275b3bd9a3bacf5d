// A webhook receiver for trying Switchboard: prints every event the gateway posts and, when
// WEBHOOK_SECRET is set (the `webhookSecret` answered at session creation), verifies its
// Standard Webhooks signature.
//
//   WEBHOOK_SECRET=whsec_... PORT=4000 node examples/webhook-receiver.js
import { createServer } from 'node:http'
import { verifyWebhook } from '@switchboard/core'

const port = Number(process.env.PORT ?? 4000)
const secret = process.env.WEBHOOK_SECRET

createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8')
    let verdict = 'not verified (set WEBHOOK_SECRET)'
    if (secret) {
      const check = verifyWebhook(secret, req.headers, body, { nowSec: Math.floor(Date.now() / 1000) })
      verdict = check.ok ? 'signature ok' : `signature REJECTED: ${check.reason}`
    }
    let event
    try {
      event = JSON.parse(body)
    } catch {
      event = body
    }
    console.log(`\n${req.headers['webhook-id'] ?? '-'}  ${event?.event ?? '?'}  (${verdict})`)
    console.log(JSON.stringify(event, null, 2))
    res.writeHead(200).end()
  })
}).listen(port, '127.0.0.1', () => console.log(`webhook receiver listening on http://127.0.0.1:${port}/webhook`))
