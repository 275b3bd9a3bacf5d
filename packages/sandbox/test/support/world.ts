/** A bare world (no store, no door) for testing the rules, with the notices it hands out. */
import { sequentialIds } from '@switchboard/core'
import { createTestClock } from '@switchboard/core/testing'
import type { TestClock } from '@switchboard/core/testing'
import { emptyState } from '../../src/world/core.js'
import type { Notice, NoticeName } from '../../src/world/notices.js'
import type { LinkRecord } from '../../src/world/records.js'
import { World } from '../../src/world/world.js'

export interface WorldFixture {
  world: World
  clock: TestClock
  /** Notices delivered so far, by session. */
  heard: { sessionId: string; notice: Notice }[]
  links: { link: LinkRecord; event: 'linked' | 'unlinked'; by?: string }[]
  /** Hands out what the last operations caused (as a commit does after persisting). */
  deliver(): void
  /** Links `sessionId` to `phone` by QR and brings it online. */
  device(phone: string, sessionId: string, online?: boolean): LinkRecord
  /** Payloads of delivered notices of one kind, for one session. */
  of<E extends NoticeName>(sessionId: string, event: E): Extract<Notice, { event: E }>['payload'][]
}

export function makeWorld(phones: string[] = ['15550001111', '15550002222', '15550003333']): WorldFixture {
  const clock = createTestClock()
  const world = new World(emptyState(), { clock, newId: sequentialIds('w') })
  for (const phoneNumber of phones) world.accounts.create({ phoneNumber })
  const fixture: WorldFixture = {
    world,
    clock,
    heard: [],
    links: [],
    deliver() {
      world.deliver(world.take().outbox)
    },
    device(phone, sessionId, online = true) {
      world.links.offerQr(sessionId, `qr-${sessionId}`, 60_000)
      const link = world.links.scan(phone, `qr-${sessionId}`)
      if (online) world.links.connect(sessionId)
      fixture.deliver()
      return link
    },
    of(sessionId, event) {
      return fixture.heard
        .filter((h) => h.sessionId === sessionId && h.notice.event === event)
        .map((h) => h.notice.payload) as never
    },
  }
  world.subscribe({
    notice: (sessionId, notice) => fixture.heard.push({ sessionId, notice }),
    linked: (link) => fixture.links.push({ link, event: 'linked' }),
    unlinked: (link, by) => fixture.links.push({ link, event: 'unlinked', by }),
  })
  return fixture
}
