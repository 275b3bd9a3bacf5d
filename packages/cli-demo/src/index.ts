/**
 * `switchboard-demo`: a terminal tour of Switchboard on the sandbox network. It links a session
 * by "scanning" its QR with a simulated phone, sends a message, receives a reply, shows the
 * receipts and the webhook events as they happen. No phone, no server, no internet.
 * @module
 */
import { createGateway, openStore, systemClock, type GatewayEvent } from '@switchboard/core'
import { createSandbox } from '@switchboard/sandbox'
import QRCode from 'qrcode'

export interface DemoOptions {
  /** Where lines go. @default process.stdout.write */
  write?: (line: string) => void
  /** Pause between steps, for reading. @default 600 */
  stepMs?: number
  /** Draw the QR in the terminal. @default true */
  drawQr?: boolean
}

const SHOP = '15550001111'
const CUSTOMER = '15550002222'

/** Runs the tour; resolves when it is over and everything is closed. */
export async function runDemo(options: DemoOptions = {}): Promise<GatewayEvent[]> {
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`))
  const stepMs = options.stepMs ?? 600
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, stepMs))
  const store = await openStore('memory')
  const sandbox = createSandbox({ store, clock: systemClock, qrDelayMs: 300, connectDelayMs: 100 })
  await sandbox.load()
  const gateway = await createGateway({ store, network: sandbox.driver(), adminKey: 'wamk_demo_admin_key_0123456789abcdefghijk' })
  const events: GatewayEvent[] = []
  gateway.onEvent((event) => {
    events.push(event)
    write(`  ⚡ webhook ${event.event}${describe(event)}`)
  })
  try {
    await gateway.start()
    write('Switchboard demo on the sandbox network\n')
    await sandbox.accounts.create({ phoneNumber: SHOP, name: 'Corner Shop' })
    await sandbox.accounts.create({ phoneNumber: CUSTOMER, name: 'Alice' })
    write(`1. Two simulated phones: the shop (+${SHOP}) and a customer, Alice (+${CUSTOMER}).`)
    await pause()

    const { record, apiKey } = await gateway.sessions.create({ name: 'corner-shop' }, gateway.masterPrincipal())
    write(`2. Session ${record.id} created (session key ${apiKey.slice(0, 12)}…); waiting for its QR.`)
    await gateway.sessions.waitForState(record.id, 'qr_ready', 10_000)
    const qr = await gateway.sessions.qr(record.id, 'raw')
    if (options.drawQr ?? true) write(await QRCode.toString(qr, { type: 'terminal', small: true }))
    await pause()

    write('3. The shop phone scans it…')
    await sandbox.scan(SHOP, qr)
    await gateway.sessions.waitForState(record.id, 'ready', 10_000)
    await pause()

    write('4. Sending Alice a message through the gateway.')
    const sent = await gateway.messaging.sendText(record.id, { to: CUSTOMER, text: 'Your order is ready for pickup!' })
    await pause()
    write(`5. Alice reads it (message ${sent.messageId}) and answers.`)
    await sandbox.read(CUSTOMER, `${SHOP}@s.whatsapp.net`, [sent.messageId])
    await sandbox.sendAs(CUSTOMER, { to: SHOP, text: 'Great, on my way!' })
    await pause()

    const chats = await gateway.directory.listChats(record.id)
    write(`6. Chats of the session: ${chats.map((c) => `${c.name || c.id} (${c.unreadCount} unread)`).join(', ')}`)
    write('\nThat is the whole loop. Start the server with SWITCHBOARD_NETWORK=sandbox npm start to do it over REST.')
    return events
  } finally {
    await gateway.close()
    await sandbox.close()
    await store.close()
  }
}

function describe(event: GatewayEvent): string {
  switch (event.event) {
    case 'message':
      return `: "${event.message.body}" from ${event.message.from}`
    case 'message_status':
      return `: ${event.statusUpdate.status}`
    case 'authenticated':
    case 'ready':
      return `: +${event.phoneNumber}`
    default:
      return ''
  }
}
