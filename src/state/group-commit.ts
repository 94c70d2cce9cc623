/**
 * Group commit: at most one write in flight, and everything submitted while it runs goes into the
 * next one, so a burst of N items costs a handful of fsyncs instead of N. An item arriving when
 * idle waits for no timer, only for the end of the event loop's current I/O phase (setImmediate),
 * so items that arrive together share a write — every frame of a socket's reads in that phase,
 * not only those of one data chunk.
 *
 * That phase can be long: libuv reads a busy socket up to 32 times per pass, so a Slack burst of a
 * thousand frames is parsed in one phase of ~50 ms, and an item waiting for its end waits for all
 * of it. `maxDelayMs` bounds that: an item that finds the oldest waiting one older than this
 * starts the write at once, from inside the phase, so acknowledgements go out as the burst is
 * read rather than after it (docs/design.md §10). Each submission settles with the write that carried it.
 */
export function createGroupCommit<T>(
  write: (items: readonly T[]) => Promise<void>,
  options: { readonly maxDelayMs?: number; readonly now?: () => number } = {},
): (item: T) => Promise<void> {
  const maxDelayMs = options.maxDelayMs ?? Number.POSITIVE_INFINITY;
  const now = options.now ?? (() => performance.now());
  let queued: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let oldestAt = 0;
  let writing = false;
  let scheduled = false;

  async function drain(): Promise<void> {
    if (writing) return;
    writing = true;
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    writing = false;
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queued.push({ item, resolve, reject });
      // While a write runs, the loop in drain() takes this item next.
      if (writing) return;
      if (queued.length === 1) oldestAt = now();
      if (now() - oldestAt >= maxDelayMs) {
        void drain();
        return;
      }
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        void drain();
      });
    });
}
