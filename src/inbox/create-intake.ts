import type { Logger } from '../log/create-logger.js';
import type { DedupeLedger } from '../state/create-dedupe-ledger.js';
import { createInbox } from '../state/create-inbox.js';
import { createInboxAcceptor } from './create-inbox-acceptor.js';
import { createInboxProcessor } from './create-inbox-processor.js';
import { finishOnce } from './finish-once.js';
import type { QuietGate } from './create-quiet-gate.js';

/**
 * How every surface takes messages in (docs/design.md §9): an inbox folder records each one before its
 * origin is acknowledged, the dedupe ledger drops twins and redeliveries, and a processor hands
 * each on to `handle` once, in arrival order per lane. `handle` gets the entry's `done`: it marks
 * the entry done as soon as the delivery's outcome is known (inbox/finish-once.ts); whatever it
 * does not mark is done when it returns.
 */
export interface Intake<T> {
  /** Resolves once the message is recorded: the origin may then have its acknowledgement. */
  accept(message: T): Promise<void>;
  /** After a restart, before reconnecting: hands on what the inbox still holds, oldest first. */
  recover(): Promise<number>;
  /** Resolves when everything handed on so far has been handled. */
  idle(): Promise<void>;
}

export function createIntake<T>(options: {
  /** The surface's inbox folder. */
  readonly dir: string;
  readonly validate: (value: unknown) => value is T;
  /** See createInbox: for an intake whose acknowledgements wait on the write (Slack). */
  readonly synchronousWrites?: boolean;
  readonly ledger: DedupeLedger;
  readonly idsOf: (message: T) => readonly string[];
  /** Messages of one lane (a Slack thread, a work item) are handled one after another. */
  readonly laneOf: (message: T) => string;
  readonly handle: (message: T, done: () => Promise<void>) => Promise<void>;
  /** A message judged new, just before it is handed on. */
  readonly accepted?: (message: T) => void;
  readonly duplicate: (message: T) => void;
  /** When given, handling waits for arrivals to pause (docs/design.md §10). */
  readonly quiet?: QuietGate;
  readonly logger: Logger;
}): Intake<T> {
  const inbox = createInbox<T>({
    dir: options.dir,
    validate: options.validate,
    ...(options.synchronousWrites ? { synchronousWrites: true } : {}),
    logger: options.logger,
  });
  const processor = createInboxProcessor<T>({
    laneOf: options.laneOf,
    handle: async (entry) => {
      const done = finishOnce(inbox, entry.key);
      try {
        await options.handle(entry.value, done);
      } finally {
        await done();
      }
    },
    logger: options.logger,
  });
  const acceptor = createInboxAcceptor<T>({
    inbox,
    ledger: options.ledger,
    idsOf: options.idsOf,
    laneOf: options.laneOf,
    handOn: (entry) => {
      options.accepted?.(entry.value);
      processor.submit(entry);
    },
    duplicate: options.duplicate,
    ...(options.quiet ? { quiet: options.quiet } : {}),
    logger: options.logger,
  });
  return {
    accept: (message) => acceptor.accept(message),
    recover: () => acceptor.recover(),
    idle: () => processor.idle(),
  };
}
