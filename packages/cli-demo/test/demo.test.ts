import { expect } from 'chai'
import { runDemo } from '../src/index.js'

describe('runDemo()', () => {
  it('links, sends, receives and reports every step as webhook events', async function () {
    this.timeout(15_000)
    const lines: string[] = []
    const events = await runDemo({ write: (l) => lines.push(l), stepMs: 0, drawQr: false })
    expect(events.map((e) => e.event)).to.include.members(['qr_ready', 'authenticated', 'ready', 'message_status', 'message'])
    const message = events.find((e) => e.event === 'message')
    expect(message?.event === 'message' && message.message.body).to.equal('Great, on my way!')
    const statuses = events.flatMap((e) => (e.event === 'message_status' ? [e.statusUpdate.status] : []))
    expect(statuses).to.include('read')
    expect(lines.join('\n')).to.contain('Chats of the session: Alice (1 unread)')
  })
})
