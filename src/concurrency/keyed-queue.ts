/**
 * One FIFO per key: tasks for the same key run strictly one after another, tasks for different
 * keys run in parallel. A failed task does not stop the ones queued behind it.
 */
export interface KeyedQueue {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Tasks queued or running for a key. */
  depth(key: string): number;
}

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  const depths = new Map<string, number>();

  return {
    run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve();
      depths.set(key, (depths.get(key) ?? 0) + 1);
      const result = previous.then(task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        const left = (depths.get(key) ?? 1) - 1;
        if (left === 0) depths.delete(key);
        else depths.set(key, left);
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    depth(key) {
      return depths.get(key) ?? 0;
    },
  };
}
