/**
 * Runs tasks one at a time per key, in arrival order; tasks of different keys run concurrently. In-process: it
 * serializes what one instance does, which is enough for what only the instance owning the exchange does (every
 * other instance forwards its requests there, docs/scale-out.md).
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => {});
    this.#tails.set(key, tail);
    // The last task of a key removes the key, so the map holds only keys with work in flight.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
