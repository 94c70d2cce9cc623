import type { Logger } from '../log/create-logger.js';
import { createRecordStore } from './record-store.js';

/**
 * Accepted, not yet delivered messages (DESIGN §9). A message is written here before its origin
 * is acknowledged and removed only once it has been handled, so a crash between the two loses
 * nothing: the restarted daemon handles what is left, oldest first.
 */
export interface InboxEntry<T> {
  readonly key: string;
  readonly value: T;
}

export interface Inbox<T> {
  add(value: T): Promise<InboxEntry<T>>;
  /** Everything still waiting, in arrival order. */
  pending(): Promise<Array<InboxEntry<T>>>;
  done(key: string): Promise<void>;
}

export function createInbox<T>(options: {
  readonly dir: string;
  readonly validate: (value: unknown) => value is T;
  readonly logger: Logger;
  readonly clock?: () => number;
}): Inbox<T> {
  const store = createRecordStore<T>({
    dir: options.dir,
    validate: options.validate,
    logger: options.logger,
  });
  const clock = options.clock ?? Date.now;
  let last = 0;
  let sequence = 0;

  // Keys sort in arrival order: milliseconds, then a counter within the same millisecond, then
  // the pid so two processes sharing a root cannot collide.
  const nextKey = (): string => {
    // A clock stepping backwards must not reorder what arrives after it.
    const now = Math.max(clock(), last);
    sequence = now === last ? sequence + 1 : 0;
    last = now;
    return `${String(now).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${process.pid}`;
  };

  return {
    async add(value) {
      const key = nextKey();
      await store.write(key, value);
      return { key, value };
    },
    async pending() {
      return store.list();
    },
    async done(key) {
      await store.remove(key);
    },
  };
}
