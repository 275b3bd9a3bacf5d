import { Agent, request } from 'node:http'
import { expect } from 'chai'
import Koa from 'koa'
import { listen } from '../src/http-server.js'
import { SESSION_KEY } from './helpers/fake-gateway.js'
import { call, startApp } from './helpers/start-app.js'

describe('listen()', () => {
  it('binds a free port for port 0 and reports http://HOST:PORT', async () => {
    const listening = await listen(new Koa(), { port: 0, host: '127.0.0.1' })
    expect(listening.port).to.be.above(0)
    expect(listening.url).to.equal(`http://127.0.0.1:${listening.port}`)
    await listening.close()
  })

  it('brackets an IPv6 host in the url', async () => {
    const listening = await listen(new Koa(), { port: 0, host: '::1' })
    expect(listening.url).to.equal(`http://[::1]:${listening.port}`)
    await listening.close()
  })

  it('rejects when the port is taken', async () => {
    const first = await listen(new Koa(), { port: 0, host: '127.0.0.1' })
    try {
      await listen(new Koa(), { port: first.port, host: '127.0.0.1' }).then(
        () => expect.fail('listened twice'),
        (err: NodeJS.ErrnoException) => expect(err.code).to.equal('EADDRINUSE'),
      )
    } finally {
      await first.close()
    }
  })

  describe('close()', () => {
    it('stops accepting, lets the in-flight request finish, then resolves', async () => {
      const app = await startApp()
      const inFlight = call(`${app.url}/sessions/s1/slow`, { headers: { 'X-API-Key': SESSION_KEY } })
      await app.slow.entered
      let closed = false
      const closing = app.close().then(() => (closed = true))
      await new Promise((resolve) => setImmediate(resolve))
      const refused = await fetch(`${app.url}/ping`).then(
        () => 'answered',
        () => 'refused',
      )
      expect(refused).to.equal('refused')
      expect(closed).to.equal(false)
      app.slow.release()
      const res = await inFlight
      expect(res.status).to.equal(200)
      expect(res.body).to.deep.equal({ success: true, waited: true })
      await closing
      expect(closed).to.equal(true)
    })

    it('does not wait for idle keep-alive connections', async () => {
      const app = await startApp()
      await new Promise<void>((resolve, reject) => {
        const req = request(`${app.url}/ping`, { agent: new Agent({ keepAlive: true }) }, (res) => {
          res.resume()
          res.on('end', resolve)
        })
        req.on('error', reject)
        req.end()
      })
      const started = performance.now()
      await app.close()
      expect(performance.now() - started).to.be.below(500)
    })

    it('cuts off requests still running after graceMs', async () => {
      let entered!: () => void
      const arrived = new Promise<void>((resolve) => (entered = resolve))
      const stuck = new Koa()
      stuck.use(() => {
        entered()
        return new Promise(() => {})
      })
      const listening = await listen(stuck, { port: 0, host: '127.0.0.1', graceMs: 0 })
      const hanging = fetch(`${listening.url}/`).then(
        () => 'answered',
        () => 'cut off',
      )
      await arrived
      await listening.close()
      expect(await hanging).to.equal('cut off')
    })

    it('is idempotent', async () => {
      const listening = await listen(new Koa(), { port: 0, host: '127.0.0.1' })
      const a = listening.close()
      const b = listening.close()
      expect(a).to.equal(b)
      await a
    })
  })
})
