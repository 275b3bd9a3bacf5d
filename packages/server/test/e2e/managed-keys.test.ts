import { expect } from 'chai'
import type { Api, Json } from './support/api.js'
import { createAccount, createSession, linkByQr, waitForState } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'

const DAY_MS = 86_400_000

describe('e2e: managed API keys', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e

  beforeEach(async () => {
    e2e = await startE2e()
  })

  afterEach(() => e2e.close())

  const createKey = async (body: Json, path = '/admin/api-keys'): Promise<{ id: string; api: Api; body: Json }> => {
    const created = await e2e.admin.post(path, body)
    expect(created.status, created.text).to.equal(201)
    return { id: created.body.apiKey.id as string, api: e2e.as(created.body.apiKey.key as string), body: created.body }
  }

  it('creates a key with custom limits, shows it without its secret, and caps its sessions with maxSessions', async () => {
    const limits = { rateLimitGeneral: 50, rateLimitMessages: 5, rateLimitSessions: 4, maxSessions: 1 }
    const { id, api, body } = await createKey({ name: 'acme', type: 'premium', ...limits, metadata: { plan: 'x' } })
    expect(body.apiKey).to.include({ name: 'acme', type: 'premium', isAdmin: false, maxSessions: 1 })
    expect(body.apiKey.key).to.match(/^wamk_/)
    expect(body.apiKey.rateLimits).to.deep.equal({ general: 50, messages: 5, sessions: 4 })
    expect(body.warning).to.be.a('string')

    const details = await e2e.admin.get(`/admin/api-keys/${id}`)
    expect(details.body.apiKey).to.include({ id, name: 'acme', type: 'premium', isActive: true, isTrial: false })
    expect(details.body.apiKey).to.not.have.property('key')
    expect(details.text).to.not.include(body.apiKey.key)
    const list = await e2e.admin.get('/admin/api-keys?type=premium')
    expect(list.body.count).to.equal(1)
    expect(list.body.apiKeys[0].id).to.equal(id)

    await createSession(e2e, { by: api })
    const second = await api.post('/sessions/create', { name: 'second' })
    expect(second.status).to.equal(403)
    expect(second.body).to.deep.equal({ success: false, error: 'Maximum number of sessions reached' })
    const missing = await e2e.admin.get('/admin/api-keys/nope')
    expect(missing.status).to.equal(404)
    expect(missing.body).to.deep.equal({ success: false, error: 'API key not found' })
    const invalid = await e2e.admin.post('/admin/api-keys', { type: 'standard' })
    expect(invalid.status).to.equal(400)
    expect(invalid.body.error).to.equal('name is required')
  })

  it('deactivates a key (and its sessions’ keys) with 403, and activates it again', async () => {
    const { id, api } = await createKey({ name: 'paused' })
    const session = await createSession(e2e, { by: api })
    const off = await e2e.admin.post(`/admin/api-keys/${id}/deactivate`)
    expect(off.body).to.include({ success: true, message: 'API key deactivated' })
    expect(off.body.apiKey.isActive).to.equal(false)
    for (const [client, path] of [[api, '/sessions'], [session.api, `/sessions/${session.id}/status`]] as const) {
      const refused = await client.get(path)
      expect(refused.status, path).to.equal(403)
      expect(refused.body, path).to.deep.equal({ success: false, error: 'API key is deactivated' })
    }
    const listed = await e2e.admin.get('/admin/api-keys')
    expect(listed.body.apiKeys.map((k: Json) => k.id)).to.not.include(id)
    const withInactive = await e2e.admin.get('/admin/api-keys?includeInactive=true')
    expect(withInactive.body.apiKeys.map((k: Json) => k.id)).to.include(id)

    const on = await e2e.admin.post(`/admin/api-keys/${id}/activate`)
    expect(on.body).to.include({ success: true, message: 'API key activated' })
    expect((await api.get('/sessions')).status).to.equal(200)
    expect((await session.api.get(`/sessions/${session.id}/status`)).status).to.equal(200)
  })

  it('deleting a key invalidates it and the keys of its sessions (401)', async () => {
    const { id, api } = await createKey({ name: 'gone' })
    const session = await createSession(e2e, { by: api })
    const deleted = await e2e.admin.delete(`/admin/api-keys/${id}`)
    expect(deleted.body).to.deep.equal({ success: true, message: 'API key deleted' })
    for (const [client, path] of [[api, '/sessions'], [session.api, `/sessions/${session.id}/status`]] as const) {
      const refused = await client.get(path)
      expect(refused.status, path).to.equal(401)
      expect(refused.body, path).to.deep.equal({ success: false, error: 'Invalid API key' })
    }
    const status = await e2e.admin.get(`/sessions/${session.id}/status`)
    expect(status.body.session.state).to.equal('stopped')
    expect((await e2e.admin.get(`/admin/api-keys/${id}`)).status).to.equal(404)
  })

  it('keeps a trial key to its allowed numbers and its period; extend-trial and convert-to-paid lift the limits', async () => {
    const [me, allowed, other] = ['15550008001', '15550008002', '15550008003']
    for (const phone of [me, allowed, other]) await createAccount(e2e, phone)
    const trial = { name: 'try', trialDays: 1, allowedNumbers: [allowed, '+1 555-000-8009'] }
    const { id, api, body } = await createKey(trial, '/admin/api-keys/trial')
    expect(body.apiKey).to.include({ type: 'trial', isTrial: true, maxSessions: 1 })
    expect(body.apiKey.allowedNumbers).to.deep.equal([allowed, '15550008009'])
    expect(body.apiKey.rateLimits.messages).to.equal(10)
    expect(body.apiKey.trialExpiresAt).to.equal(new Date(e2e.clock.now() + DAY_MS).toISOString())
    expect(body.trialInfo.restrictions).to.be.an('array').that.is.not.empty

    const session = await createSession(e2e, { by: api })
    await linkByQr(e2e, session, me)
    const send = (to: string) => session.api.post(`/sessions/${session.id}/send`, { to, text: 'trial' })
    expect((await send(allowed)).status).to.equal(200)
    const refused = await send(other)
    expect(refused.status).to.equal(403)
    const error = `Trial key can only send to allowed numbers: ${allowed}, 15550008009`
    expect(refused.body).to.deep.equal({ success: false, error })

    await e2e.clock.tick(DAY_MS)
    await waitForState(e2e, session.id, 'ready')
    for (const [client, path] of [[api, '/sessions'], [session.api, `/sessions/${session.id}/status`]] as const) {
      const expired = await client.get(path)
      expect(expired.status, path).to.equal(403)
      expect(expired.body, path).to.deep.equal({ success: false, error: 'Trial period has expired' })
    }

    const extended = await e2e.admin.post(`/admin/api-keys/${id}/extend-trial`, { days: 2 })
    expect(extended.body).to.include({ success: true, message: 'Trial extended' })
    expect(extended.body.apiKey.trialExpiresAt).to.equal(new Date(e2e.clock.now() + 2 * DAY_MS).toISOString())
    expect((await send(allowed)).status).to.equal(200)

    const paid = await e2e.admin.post(`/admin/api-keys/${id}/convert-to-paid`, { type: 'standard', maxSessions: 5 })
    expect(paid.body).to.include({ success: true, message: 'Trial key converted to a paid key' })
    expect(paid.body.apiKey).to.include({ type: 'standard', isTrial: false, trialExpiresAt: null, allowedNumbers: null })
    expect(paid.body.apiKey.maxSessions).to.equal(5)
    expect((await send(other)).status).to.equal(200)
    await e2e.clock.tick(3 * DAY_MS)
    expect((await api.get('/sessions')).status).to.equal(200)
  })
})
