import { expect } from 'chai'
import { isReconnecting, transition } from '../../src/sessions/session-state.js'

const me = { jid: '15550001111@s.whatsapp.net', phoneNumber: '15550001111' }

describe('sessions/transition()', () => {
  it('moves a new session from starting to qr_ready with a qr_ready signal and the payload', () => {
    const t = transition('starting', { state: 'qr', qr: 'payload-1' })
    expect(t).to.deep.equal({ state: 'qr_ready', qr: 'payload-1', signals: [{ event: 'qr_ready' }] })
  })

  it('signals authenticated on a link and stays connecting until the network opens', () => {
    const t = transition('qr_ready', { state: 'authenticated', me })
    expect(t?.state).to.equal('connecting')
    expect(t?.signals).to.deep.equal([{ event: 'authenticated', phoneNumber: '15550001111' }])
    expect(transition('connecting', { state: 'open', me })?.signals).to.deep.equal([{ event: 'ready', phoneNumber: '15550001111' }])
  })

  it('maps a temporary loss to disconnected and a final one to failed, both with the disconnected event', () => {
    const lost = transition('ready', { state: 'disconnected', reason: 'connection_lost', error: 'Connection lost', willReconnect: true })
    expect(lost?.state).to.equal('disconnected')
    expect(lost?.signals).to.deep.equal([{ event: 'disconnected', error: 'Connection lost', willReconnect: true }])
    const gone = transition('ready', { state: 'disconnected', reason: 'replaced', error: 'Replaced', willReconnect: false })
    expect(gone?.state).to.equal('failed')
    const failed = transition('disconnected', { state: 'failed', reason: 'unknown', error: 'Too many failures' })
    expect(failed?.state).to.equal('failed')
    expect(failed?.signals).to.deep.equal([{ event: 'disconnected', error: 'Too many failures', willReconnect: false }])
  })

  it('unlinks on logged_out', () => {
    const t = transition('ready', { state: 'logged_out', reason: 'logged_out', error: 'Unlinked from the phone' })
    expect(t).to.include({ state: 'logged_out', unlinked: true })
    expect(t?.signals).to.deep.equal([{ event: 'logged_out' }])
  })

  it('ignores late news for sessions stopped, logged out or failed on purpose, and our own closes', () => {
    for (const state of ['stopped', 'logged_out', 'failed'] as const) {
      expect(transition(state, { state: 'open', me })).to.equal(undefined)
    }
    expect(transition('ready', { state: 'closed' })).to.equal(undefined)
    expect(transition('stopped', { state: 'starting' })?.state).to.equal('starting')
  })

  it('treats a linked session that is coming back as reconnecting', () => {
    expect(isReconnecting('connecting', false)).to.equal(true)
    expect(isReconnecting('disconnected', true)).to.equal(true)
    expect(isReconnecting('starting', true)).to.equal(true)
    expect(isReconnecting('starting', false)).to.equal(false)
    expect(isReconnecting('qr_ready', false)).to.equal(false)
  })
})
