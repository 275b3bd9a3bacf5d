/**
 * A mutex as a promise chain: tasks run one at a time, in the order they were queued. The SQLite
 * backend runs every statement through one, so nothing interleaves between `BEGIN` and `COMMIT` on
 * its single connection.
 * @module
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve()

  /** Runs `task` after every task queued before it has settled; settles as `task` does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task)
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}
