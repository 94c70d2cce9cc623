/**
 * Group commit: at most one write in flight, and everything submitted while it runs goes into the
 * next one, so a burst of N items costs a handful of fsyncs instead of N. An item arriving when
 * idle waits for no timer, only for the end of the event loop's current I/O phase (setImmediate),
 * so items that arrive together share a write — every frame of a socket's reads in that phase,
 * not only those of one data chunk (a Slack burst: half the fsyncs an ack waits on, DESIGN §10).
 * Each submission settles with the write that carried it.
 */
export function createGroupCommit<T>(
  write: (items: readonly T[]) => Promise<void>,
): (item: T) => Promise<void> {
  let queued: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let running = false;

  async function drain(): Promise<void> {
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
    running = false;
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queued.push({ item, resolve, reject });
      if (running) return;
      running = true;
      setImmediate(() => void drain());
    });
}
