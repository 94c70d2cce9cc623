import { createKeyedQueue } from '../concurrency/keyed-queue.js';
import type { Logger } from '../log/create-logger.js';
import type { InboxEntry } from '../state/create-inbox.js';

/**
 * Runs recorded messages through their handler: each once, in arrival order per thread, threads
 * in parallel. Arrival order is kept by handing entries over in the order they were recorded;
 * replies in one thread then wait for each other — until the handler calls `release`: once a
 * message is in the delivery core's queue its place is fixed, and the next may follow while it
 * waits to be taken. An entry stays in flight (never handed over twice) until its handler ends.
 */
export interface InboxProcessor<T> {
  submit(entry: InboxEntry<T>): void;
  /** Resolves when everything submitted so far has been handled. */
  idle(): Promise<void>;
}

export function createInboxProcessor<T>(options: {
  readonly laneOf: (value: T) => string;
  readonly handle: (entry: InboxEntry<T>, release: () => void) => Promise<void>;
  readonly logger: Logger;
}): InboxProcessor<T> {
  const lanes = createKeyedQueue();
  const inFlight = new Set<string>();
  const running = new Set<Promise<void>>();
  return {
    submit(entry) {
      if (inFlight.has(entry.key)) return;
      inFlight.add(entry.key);
      let handled: Promise<void> = Promise.resolve();
      const turn = lanes.run(
        options.laneOf(entry.value),
        () =>
          new Promise<void>((release) => {
            handled = options.handle(entry, release);
            void handled.then(release, release);
          }),
      );
      const run = turn
        .then(() => handled)
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
