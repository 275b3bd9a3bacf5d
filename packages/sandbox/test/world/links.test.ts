import { expect } from 'chai'
import { caught } from '../support/setup.js'
import { makeWorld } from '../support/world.js'

const A = '15550001111'
const B = '15550002222'

describe('world.links', () => {
  it('links a device to the account that scans its QR, with increasing device numbers', () => {
    const f = makeWorld([A])
    f.world.links.offerQr('s1', 'qr-1', 60_000)
    f.world.links.offerQr('s2', 'qr-2', 60_000)
    const first = f.world.links.scan(A, ' qr-1 ')
    const second = f.world.links.scan(A, 'qr-2')
    expect(first).to.include({ sessionId: 's1', phone: A, deviceId: 1, method: 'qr' })
    expect(second.deviceId).to.equal(2)
    f.deliver()
    expect(f.links.map((l) => [l.event, l.link.sessionId])).to.deep.equal([
      ['linked', 's1'],
      ['linked', 's2'],
    ])
  })

  it('refuses unknown, expired and withdrawn QR payloads with `Invalid or expired QR code`', async () => {
    const f = makeWorld([A])
    const invalid = { code: 'SANDBOX_QR_INVALID', message: 'Invalid or expired QR code', status: 400 }
    expect(await caught(() => f.world.links.scan(A, 'nope'))).to.include(invalid)
    f.world.links.offerQr('s1', 'qr-1', 60_000)
    await f.clock.tick(60_000)
    expect(await caught(() => f.world.links.scan(A, 'qr-1'))).to.include(invalid)
    f.world.links.offerQr('s1', 'qr-2', 60_000)
    f.world.links.withdraw('s1')
    expect(await caught(() => f.world.links.scan(A, 'qr-2'))).to.include(invalid)
  })

  it('a scan by an unknown account is `Account not found`', async () => {
    const f = makeWorld([A])
    f.world.links.offerQr('s1', 'qr-1', 60_000)
    expect(await caught(() => f.world.links.scan(B, 'qr-1'))).to.include({ code: 'SANDBOX_ACCOUNT_NOT_FOUND' })
  })

  it('a pairing code links only the account it was asked for, once, within its time', async () => {
    const f = makeWorld([A, B])
    const invalid = { code: 'SANDBOX_CODE_INVALID', message: 'Invalid or expired pairing code', status: 400 }
    f.world.links.offerCode('s1', A, 'ABCD2345', 60_000)
    expect(await caught(() => f.world.links.enterCode(B, 'ABCD2345'))).to.include(invalid)
    expect(f.world.links.enterCode(A, 'abcd-2345')).to.include({ sessionId: 's1', method: 'code' })
    expect(await caught(() => f.world.links.enterCode(A, 'ABCD2345'))).to.include(invalid)
    f.world.links.offerCode('s2', A, 'WXYZ6789', 60_000)
    await f.clock.tick(60_001)
    expect(await caught(() => f.world.links.enterCode(A, 'WXYZ6789'))).to.include(invalid)
  })

  it('unlink by the account: the link and its queue go, the door hears `account`', async () => {
    const f = makeWorld([A, B])
    f.device(A, 's1', false)
    f.world.messages.send(B, { to: `${A}@s.whatsapp.net`, content: { type: 'text', text: 'queued' } })
    f.world.links.unlink(A, 's1')
    f.deliver()
    expect(f.world.links.get('s1')).to.equal(undefined)
    expect(f.links.at(-1)).to.deep.include({ event: 'unlinked', by: 'account' })
    expect(f.world.links.connect('s1')).to.deep.equal([])
  })

  it('unlink of a session not linked to that account is `Session not found`', async () => {
    const f = makeWorld([A, B])
    f.device(A, 's1')
    expect(await caught(() => f.world.links.unlink(B, 's1'))).to.include({ code: 'SESSION_NOT_FOUND', message: 'Session not found', status: 404 })
    expect(await caught(() => f.world.links.unlink(A, 'nope'))).to.include({ code: 'SESSION_NOT_FOUND' })
  })

  it('logout by the device removes the link quietly when there is none', () => {
    const f = makeWorld([A])
    f.device(A, 's1')
    expect(f.world.links.logout('s1')).to.include({ sessionId: 's1' })
    expect(f.world.links.logout('s1')).to.equal(undefined)
    f.deliver()
    expect(f.links.at(-1)).to.deep.include({ event: 'unlinked', by: 'device' })
  })

  it('lists links, all or by account, oldest first', async () => {
    const f = makeWorld([A, B])
    f.device(A, 's1')
    await f.clock.tick(10)
    f.device(B, 's2')
    await f.clock.tick(10)
    f.device(A, 's3')
    expect(f.world.links.list().map((l) => l.sessionId)).to.deep.equal(['s1', 's2', 's3'])
    expect(f.world.links.list(A).map((l) => l.sessionId)).to.deep.equal(['s1', 's3'])
  })
})
