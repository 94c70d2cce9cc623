import { createKeyedQueue } from '../concurrency/keyed-queue.js';
import type { Logger } from '../log/create-logger.js';
import type { InboxEntry } from '../state/create-inbox.js';

/**
 * Runs recorded messages through their handler: each once, in arrival order per thread, threads
 * in parallel. Arrival order is kept by handing entries over in the order they were recorded;
 * replies in one thread then wait for each other.
 */
export interface InboxProcessor<T> {
  submit(entry: InboxEntry<T>): void;
  /** Resolves when everything submitted so far has been handled. */
  idle(): Promise<void>;
}

export function createInboxProcessor<T>(options: {
  readonly laneOf: (value: T) => string;
  readonly handle: (entry: InboxEntry<T>) => Promise<void>;
  readonly logger: Logger;
}): InboxProcessor<T> {
  const lanes = createKeyedQueue();
  const inFlight = new Set<string>();
  const running = new Set<Promise<void>>();
  return {
    submit(entry) {
      if (inFlight.has(entry.key)) return;
      inFlight.add(entry.key);
      const run = lanes
        .run(options.laneOf(entry.value), () => options.handle(entry))
        .catch((error: unknown) => {
          options.logger.error(
            { event: 'inbox.handle_failed', key: entry.key, err: error },
            'inbox entry failed',
          );
        })
        .finally(() => {
          inFlight.delete(entry.key);
          running.delete(run);
        });
      running.add(run);
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
