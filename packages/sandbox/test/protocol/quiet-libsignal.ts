/** libsignal narrates session changes on the console; keep test output readable. */
const LIBSIGNAL_CHATTER =
  /^(Closing session|Opening session|Removing old closed session|Closing open session|Session already|Decrypted message with closed session|Migrating session)/

for (const level of ['info', 'warn'] as const) {
  const original = console[level].bind(console)
  console[level] = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && LIBSIGNAL_CHATTER.test(args[0])) return
    original(...args)
  }
}
