export { createTestClock, T0 } from './test-clock.js'
export type { TestClock } from './test-clock.js'
export { runDriverContract } from './driver-contract.js'
export type { DriverCapability, DriverHarness, HarnessPeer, PeerMessage } from './driver-contract.js'
