// Embedding Switchboard in a Node app, on the sandbox network: no server, no phone.
// A session is linked by a simulated phone, sends a message and gets a reply.
//
//   node examples/embed-sandbox.js
import { createGateway, openStore, systemClock } from '@switchboard/core'
import { createSandbox } from '@switchboard/sandbox'

const store = await openStore('memory')
const sandbox = createSandbox({ store, clock: systemClock, qrDelayMs: 50, connectDelayMs: 20 })
await sandbox.load()
const gateway = await createGateway({ store, network: sandbox.driver(), adminKey: 'wamk_example_admin_key_0123456789abcdefgh' })
await gateway.start()

await sandbox.accounts.create({ phoneNumber: '15550001111', name: 'My Shop' })
await sandbox.accounts.create({ phoneNumber: '15550002222', name: 'Alice' })

gateway.onEvent((event) => console.log('event:', event.event, event.message?.body ?? event.statusUpdate?.status ?? ''))

const { record } = await gateway.sessions.create({ name: 'shop' }, gateway.masterPrincipal())
await gateway.sessions.waitForState(record.id, 'qr_ready', 5_000)
const qr = await gateway.sessions.qr(record.id, 'raw')
await sandbox.scan('15550001111', qr)
await gateway.sessions.waitForState(record.id, 'ready', 5_000)

const sent = await gateway.messaging.sendText(record.id, { to: '15550002222', text: 'Your order has shipped!' })
console.log('sent:', sent)
await sandbox.sendAs('15550002222', { to: '15550001111', text: 'Thank you!' })

await new Promise((resolve) => setTimeout(resolve, 200))
console.log('chats:', await gateway.directory.listChats(record.id))
await gateway.close()
await sandbox.close()
await store.close()
