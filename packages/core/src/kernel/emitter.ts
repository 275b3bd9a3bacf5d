/**
 * A small typed event emitter. A listener that throws is reported through `onListenerError` and
 * never stops the other listeners or the emitter.
 * @module
 */
export type Listener<T> = (payload: T) => void | Promise<void>

export class TypedEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>()

  constructor(private readonly onListenerError: (err: unknown, event: keyof Events) => void = () => {}) {}

  /** Subscribes; returns the function that unsubscribes. */
  on<E extends keyof Events>(event: E, fn: Listener<Events[E]>): () => void {
    let set = this.#listeners.get(event)
    if (!set) this.#listeners.set(event, (set = new Set()))
    set.add(fn as Listener<never>)
    return () => {
      set.delete(fn as Listener<never>)
    }
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    const set = this.#listeners.get(event)
    if (!set) return
    for (const fn of [...set]) {
      try {
        const result = (fn as Listener<Events[E]>)(payload)
        if (result instanceof Promise) result.catch((err: unknown) => this.onListenerError(err, event))
      } catch (err) {
        this.onListenerError(err, event)
      }
    }
  }

  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.size ?? 0
  }

  removeAll(): void {
    this.#listeners.clear()
  }
}
