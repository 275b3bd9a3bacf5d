import { expect } from 'chai'
import type { Api, Json } from './support/api.js'
import { createAccount, createSession, linkByQr, type TestSession } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'
import { waitFor } from './support/wait.js'

describe('e2e: tenant keys and usage', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e
  let acme: { id: string; api: Api }
  let globex: { id: string; api: Api }
  let acmeSession: TestSession
  let globexSession: TestSession

  before(async () => {
    e2e = await startE2e()
    const key = async (name: string) => {
      const created = await e2e.admin.post('/admin/api-keys', { name })
      return { id: created.body.apiKey.id as string, api: e2e.as(created.body.apiKey.key as string) }
    }
    acme = await key('acme')
    globex = await key('globex')
    acmeSession = await createSession(e2e, { by: acme.api, name: 'acme-1' })
    globexSession = await createSession(e2e, { by: globex.api, name: 'globex-1' })
  })

  after(() => e2e.close())

  it('a tenant key sees and reaches only its own sessions', async () => {
    const list = await acme.api.get('/sessions')
    expect(list.body.sessions.map((s: Json) => s.name)).to.deep.equal(['acme-1'])
    const own = await acme.api.get(`/sessions/${acmeSession.id}/status`)
    expect(own.status).to.equal(200)
    for (const [method, path] of [
      ['GET', `/sessions/${globexSession.id}/status`],
      ['POST', `/sessions/${globexSession.id}/stop`],
      ['PUT', `/sessions/${globexSession.id}/webhook`],
      ['DELETE', `/sessions/${globexSession.id}`],
    ] as const) {
      const reply = await acme.api.request(method, path, method === 'PUT' ? { url: null } : undefined)
      expect(reply.status, `${method} ${path}`).to.equal(403)
      expect(reply.body.error, `${method} ${path}`).to.equal('This API key can only access its own session')
    }
    expect((await e2e.admin.get(`/sessions/${globexSession.id}/status`)).body.session.state).to.not.equal('stopped')
    const admin = await acme.api.get('/admin/usage')
    expect(admin.status).to.equal(403)
    expect(admin.body.error).to.equal('Admin API key required')
    const all = await e2e.admin.get('/sessions')
    expect(all.body.sessions.map((s: Json) => s.name)).to.deep.equal(['acme-1', 'globex-1'])
  })

  it('a tenant key may delete its own session', async () => {
    const extra = await createSession(e2e, { by: acme.api, name: 'acme-extra' })
    const deleted = await acme.api.delete(`/sessions/${extra.id}`)
    expect(deleted.body).to.deep.equal({ success: true, message: 'Session deleted' })
  })

  it('the usage endpoints count the sessions and the messages sent and received', async () => {
    await createAccount(e2e, '15550009001')
    await createAccount(e2e, '15550009002')
    await linkByQr(e2e, acmeSession, '15550009001')
    for (const text of ['one', 'two']) {
      const sent = await acmeSession.api.post(`/sessions/${acmeSession.id}/send`, { to: '15550009002', text })
      expect(sent.status, sent.text).to.equal(200)
    }
    await e2e.admin.post('/sandbox/accounts/15550009002/messages', { to: '15550009001', text: 'back' })

    const usage = await waitFor(
      async () => {
        const reply = await e2e.admin.get(`/admin/api-keys/${acme.id}/usage`)
        return reply.body.usage?.totalMessagesReceived === 1 ? reply.body : undefined
      },
      { clock: e2e.clock, what: 'the received message in the usage' },
    )
    expect(usage.apiKey).to.deep.equal({ id: acme.id, name: 'acme', type: 'standard' })
    expect(usage.usage).to.deep.equal({ totalSessions: 2, activeSessions: 1, totalMessagesSent: 2, totalMessagesReceived: 1 })
    expect(usage.sessions).to.have.length(1)
    expect(usage.sessions[0]).to.include({ id: acmeSession.id, name: 'acme-1', state: 'ready', phoneNumber: '15550009001' })
    expect(usage.sessions[0]).to.include({ messagesSent: 2, messagesReceived: 1 })

    const all = await e2e.admin.get('/admin/usage')
    expect(all.body.stats).to.include({ totalKeys: 2, activeKeys: 2, trialKeys: 0, totalSessions: 2, totalMessagesSent: 2 })
    expect(all.body.stats.keysByType).to.include({ standard: 2 })
    const acmeRow = all.body.keys.find((k: Json) => k.id === acme.id)
    expect(acmeRow).to.include({ name: 'acme', type: 'standard', isActive: true })
    expect(acmeRow.sessionStats).to.deep.equal({ sessions: 1, messagesSent: 2 })
    expect(acmeRow.lastUsedAt).to.match(/Z$/)
    const globexRow = all.body.keys.find((k: Json) => k.id === globex.id)
    expect(globexRow.sessionStats).to.deep.equal({ sessions: 1, messagesSent: 0 })
  })
})
