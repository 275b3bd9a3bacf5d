import { expect } from 'chai'
import { T0 } from '@switchboard/core/testing'
import { caught } from '../support/setup.js'
import { makeWorld } from '../support/world.js'

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])
const GIF = Buffer.from('GIF89a')

describe('world.accounts', () => {
  it('creates an account with the default name, a PN JID and a LID', () => {
    const { world } = makeWorld([])
    const account = world.accounts.create({ phoneNumber: '15550001111' })
    expect(account).to.include({ phone: '15550001111', jid: '15550001111@s.whatsapp.net', name: 'Sandbox 15550001111', about: null })
    expect(account.lid).to.match(/^[1-9]\d{14}@lid$/)
  })

  it('accepts the spec forms of a number and keeps the digits', () => {
    const { world } = makeWorld([])
    expect(world.accounts.create({ phoneNumber: '+1 (555) 000-1111', name: 'Ann', about: 'Hi' })).to.include({
      phone: '15550001111',
      name: 'Ann',
      about: 'Hi',
      aboutSetAtMs: T0,
    })
  })

  it('refuses an invalid number with `Invalid phone number format`', async () => {
    const { world } = makeWorld([])
    for (const phoneNumber of ['12', 'abc', '+1 555', '1234567890123456']) {
      const err = await caught(() => world.accounts.create({ phoneNumber }))
      expect(err).to.include({ code: 'INVALID_PHONE_NUMBER', message: 'Invalid phone number format', status: 400 })
    }
  })

  it('refuses a number that exists with `Account already exists`', async () => {
    const { world } = makeWorld(['15550001111'])
    const err = await caught(() => world.accounts.create({ phoneNumber: '+15550001111' }))
    expect(err).to.include({ code: 'SANDBOX_ACCOUNT_EXISTS', message: 'Account already exists', status: 400 })
  })

  it('lists accounts oldest first', async () => {
    const { world, clock } = makeWorld([])
    world.accounts.create({ phoneNumber: '15550003333' })
    await clock.tick(1000)
    world.accounts.create({ phoneNumber: '15550002222' })
    expect(world.accounts.list().map((a) => a.phone)).to.deep.equal(['15550003333', '15550002222'])
  })

  it('gives `Account not found` for an unknown number', async () => {
    const { world } = makeWorld([])
    expect(await caught(() => world.accounts.get('15550001111'))).to.include({ code: 'SANDBOX_ACCOUNT_NOT_FOUND', message: 'Account not found', status: 404 })
  })

  it('resolves PN, c.us, device and LID forms to the account', () => {
    const { world } = makeWorld(['15550001111'])
    const lid = world.accounts.get('15550001111').lid
    for (const jid of ['15550001111@s.whatsapp.net', '15550001111@c.us', '15550001111:3@s.whatsapp.net', lid]) {
      expect(world.accounts.resolve(jid)).to.equal('15550001111')
    }
    expect(world.accounts.resolve('15550009999@s.whatsapp.net')).to.equal(undefined)
  })
})

describe('world.accounts profile', () => {
  it('answers the profile of the spec', () => {
    const { world } = makeWorld(['15550001111'])
    expect(world.accounts.profile('15550001111')).to.deep.equal({
      id: '15550001111@s.whatsapp.net',
      name: 'Sandbox 15550001111',
      phone: '15550001111',
      profilePicture: null,
      status: null,
    })
  })

  it('changes the name up to 25 characters, `Name must be 25 characters or less` beyond', async () => {
    const { world } = makeWorld(['15550001111'])
    world.accounts.setName('15550001111', 'x'.repeat(25))
    expect(world.accounts.profile('15550001111').name).to.equal('x'.repeat(25))
    const err = await caught(() => world.accounts.setName('15550001111', 'x'.repeat(26)))
    expect(err).to.include({ code: 'NAME_TOO_LONG', message: 'Name must be 25 characters or less' })
  })

  it('sets the about text with its time', async () => {
    const { world, clock } = makeWorld(['15550001111'])
    await clock.tick(5000)
    world.accounts.setAbout('15550001111', 'Busy')
    expect(world.accounts.get('15550001111')).to.include({ about: 'Busy', aboutSetAtMs: T0 + 5000 })
  })

  it('takes a JPEG or PNG picture, with a new URL each time, and removes it', async () => {
    const { world } = makeWorld(['15550001111'])
    world.accounts.setPicture('15550001111', { data: JPEG, mimetype: 'image/jpeg' })
    const first = world.accounts.profile('15550001111').profilePicture
    expect(first).to.match(/^https:\/\/pps\.sandbox\.invalid\/15550001111\/.+\.jpg$/)
    world.accounts.setPicture('15550001111', { data: PNG, mimetype: 'image/png' })
    const second = world.accounts.profile('15550001111').profilePicture
    expect(second).to.match(/\.png$/).and.not.equal(first)
    world.accounts.removePicture('15550001111')
    expect(world.accounts.profile('15550001111').profilePicture).to.equal(null)
  })

  it('refuses anything but JPEG or PNG with `Invalid image format`', async () => {
    const { world } = makeWorld(['15550001111'])
    const err = await caught(() => world.accounts.setPicture('15550001111', { data: GIF, mimetype: 'image/jpeg' }))
    expect(err).to.include({ code: 'INVALID_IMAGE', message: 'Invalid image format' })
  })
})

describe('world.contacts', () => {
  const A = '15550001111'
  const B = '15550002222'

  it('shows another account its about text (with setAt in Unix seconds) and picture', async () => {
    const { world } = makeWorld([A, B])
    world.accounts.setAbout(B, 'Available')
    world.accounts.setPicture(B, { data: JPEG, mimetype: 'image/jpeg' })
    expect(world.contacts.about(A, `${B}@s.whatsapp.net`)).to.deep.equal({ about: 'Available', setAt: Math.floor(T0 / 1000) })
    expect(world.contacts.picture(A, `${B}@c.us`)).to.equal(world.accounts.profile(B).profilePicture)
  })

  it('answers null for no about text or picture', () => {
    const { world } = makeWorld([A, B])
    expect(world.contacts.about(A, `${B}@s.whatsapp.net`)).to.deep.equal({ about: null, setAt: null })
    expect(world.contacts.picture(A, `${B}@s.whatsapp.net`)).to.equal(null)
  })

  it('hides picture and about from accounts the owner blocked, and from everyone when hidden', () => {
    const { world } = makeWorld([A, B, '15550003333'])
    world.accounts.update(B, { about: 'Secret', picture: { data: JPEG, mimetype: 'image/jpeg' } })
    world.contacts.block(B, `${A}@s.whatsapp.net`)
    expect(world.contacts.about(A, `${B}@s.whatsapp.net`)).to.deep.equal({ about: null, setAt: null })
    expect(world.contacts.picture(A, `${B}@s.whatsapp.net`)).to.equal(null)
    expect(world.contacts.about('15550003333', `${B}@s.whatsapp.net`).about).to.equal('Secret')
    world.accounts.update(B, { hidden: true })
    expect(world.contacts.picture('15550003333', `${B}@s.whatsapp.net`)).to.equal(null)
  })

  it('blocks and unblocks (twice is harmless)', () => {
    const { world } = makeWorld([A, B])
    world.contacts.block(A, B + '@s.whatsapp.net')
    world.contacts.block(A, B + '@s.whatsapp.net')
    expect(world.accounts.get(A).blocked).to.deep.equal([`${B}@s.whatsapp.net`])
    expect(world.contacts.hasBlocked(A, B)).to.equal(true)
    world.contacts.unblock(A, B + '@s.whatsapp.net')
    world.contacts.unblock(A, B + '@s.whatsapp.net')
    expect(world.contacts.hasBlocked(A, B)).to.equal(false)
  })

  it('gives `Contact not found` for numbers that are not registered', async () => {
    const { world } = makeWorld([A])
    for (const op of [
      () => world.contacts.block(A, '15550009999@s.whatsapp.net'),
      () => world.contacts.unblock(A, '15550009999@s.whatsapp.net'),
      () => world.contacts.picture(A, '15550009999@s.whatsapp.net'),
      () => world.contacts.about(A, '15550009999@s.whatsapp.net'),
    ]) {
      expect(await caught(op)).to.include({ code: 'CONTACT_NOT_FOUND', message: 'Contact not found', status: 404 })
    }
  })

  it('checks numbers: digits as asked, exists, PN JID, and the LID of registered ones', () => {
    const { world } = makeWorld([A])
    expect(world.contacts.check([A, '15550009999'])).to.deep.equal([
      { phone: A, exists: true, jid: `${A}@s.whatsapp.net`, lid: world.accounts.get(A).lid },
      { phone: '15550009999', exists: false, jid: '15550009999@s.whatsapp.net' },
    ])
  })

  it('has no picture for a group it is in, `Group not found` for one it is not in', async () => {
    const { world } = makeWorld([A, B, '15550003333'])
    const group = world.groups.create(A, 'G', [`${B}@s.whatsapp.net`])
    expect(world.contacts.picture(B, group.id)).to.equal(null)
    expect(await caught(() => world.contacts.picture('15550003333', group.id))).to.include({ code: 'GROUP_NOT_FOUND' })
  })
})
