export { createTestClock, T0 } from './test-clock.js'
export type { TestClock } from './test-clock.js'
