import { createKeyedQueue } from '../concurrency/keyed-queue.js';
import type { Logger } from '../log/create-logger.js';
import { createInboxAcceptor, type QuietGate } from './acceptor.js';
import type { DedupeLedger } from './dedupe-ledger.js';
import { finishOnce, isDoneAt, type EntryMoment } from './done-rule.js';
import { createInbox, type InboxEntry } from './inbox.js';
import { isSubmitMark, type SubmitMark } from '../delivery/submit-mark.js';
import { testHold } from '../test-hold.js';

/**
 * The seam in front of the intake: what a local receiver (the Socket Mode or HTTP receiver, the
 * webhook, the poller) and the fleet (docs/design.md §21: an envelope routed to this instance)
 * call to hand a message to this instance's intake. It resolves once the message is recorded,
 * when its sender may be acknowledged.
 */
export type LocalIntake<T> = (message: T) => Promise<void>;

/** What the intake hands a surface's handler for each message, once (docs/design.md §9). */
export interface IntakeItem<T> {
  readonly message: T;
  /** The surface's logger with this message's ids (event id, delivery id): enriched once, here. */
  readonly logger: Logger;
  /**
   * Pass as the delivery's `onSubmitted`: the intake hears that the message is typed and marks
   * its entry done then, as the rule says (done-rule.ts). A handler never marks an entry done.
   */
  readonly typed: () => Promise<void>;
  /**
   * Pass as the delivery's `onSubmitting`: the intake keeps the mark with the entry until the
   * entry is done, so a restart in between can tell whether the Enter went in.
   */
  readonly submitting: (mark: SubmitMark) => Promise<void>;
  /** The mark a crashed process left with the entry: pass as the delivery's `resume`. */
  readonly resume?: SubmitMark;
}

/**
 * Spread into the delivery request of an item's message: the intake hears its Enter (`typed`),
 * keeps its mark until then, and hands on a mark a crashed process left (submit-mark.ts).
 */
export function submissionOf<T>(item: IntakeItem<T>) {
  return {
    onSubmitted: item.typed,
    onSubmitting: item.submitting,
    ...(item.resume ? { resume: item.resume } : {}),
  };
}

/** A handler's answer: its outcome, and how the person is told — run once the entry is done. */
export interface Handled<O> {
  readonly outcome: O;
  readonly tell?: () => Promise<void>;
}

export type IntakeHandler<T, O> = (item: IntakeItem<T>) => Promise<Handled<O>>;

/**
 * Runs one message through its handler and applies the done rule around it: `typed` when the
 * Enter is pressed, `handled` when the handler returns (or throws), and only then the telling.
 * `done` marks the entry done; calling it again must do nothing.
 */
export async function runHandler<T, O>(
  handle: IntakeHandler<T, O>,
  message: T,
  entry: {
    readonly done: () => Promise<void>;
    /** Where the entry's mark is kept; without one (a handler tested alone) it is not kept. */
    readonly mark?: (mark: SubmitMark) => Promise<void>;
    readonly resume?: SubmitMark;
    readonly logger: Logger;
  },
): Promise<O> {
  const reach = (moment: EntryMoment): Promise<void> =>
    isDoneAt(moment) ? entry.done() : Promise.resolve();
  let handled: Handled<O>;
  try {
    handled = await handle({
      message,
      logger: entry.logger,
      typed: isDoneAt('typed') ? entry.done : async () => undefined,
      submitting: entry.mark ?? (async () => undefined),
      ...(entry.resume ? { resume: entry.resume } : {}),
    });
  } finally {
    await reach('handled');
  }
  await handled.tell?.();
  return handled.outcome;
}

export interface Intake<T> {
  /** Resolves once the message is recorded: the origin may then have its acknowledgement. */
  readonly accept: LocalIntake<T>;
  /** After a restart, before reconnecting: hands on what the inbox still holds, oldest first. */
  recover(): Promise<number>;
  /** Resolves when everything handed on so far has been handled. */
  idle(): Promise<void>;
}

/**
 * How every surface takes messages in (docs/design.md §9): an inbox folder records each one before
 * its origin is acknowledged, the dedupe ledger drops twins and redeliveries, and lanes hand each
 * on to `handle` once, in arrival order per lane, lanes side by side. The intake, not the
 * handler, marks each entry done (done-rule.ts).
 */
export function createIntake<T, O>(options: {
  /** The surface's inbox folder. */
  readonly dir: string;
  readonly validate: (value: unknown) => value is T;
  /** See createInbox: for an intake whose acknowledgements wait on the write (Slack). */
  readonly synchronousWrites?: boolean;
  readonly ledger: DedupeLedger;
  readonly idsOf: (message: T) => readonly string[];
  /** Messages of one lane (a Slack thread, a work item) are handled one after another. */
  readonly laneOf: (message: T) => string;
  /** The ids each log line about the message carries (its event id, its delivery id). */
  readonly logFields: (message: T) => Record<string, unknown>;
  readonly handle: IntakeHandler<T, O>;
  /** A message judged new, just before it is handed on. */
  readonly accepted?: (message: T) => void;
  /** A message handled and its person told. */
  readonly handled?: (message: T, outcome: O) => void;
  readonly duplicate: (message: T) => void;
  /** When given, handling waits for arrivals to pause (docs/design.md §10). */
  readonly quiet?: QuietGate;
  readonly logger: Logger;
}): Intake<T> {
  const { logger } = options;
  const inbox = createInbox<T>({
    dir: options.dir,
    validate: options.validate,
    ...(options.synchronousWrites ? { synchronousWrites: true } : {}),
    logger,
  });
  const lanes = createKeyedQueue();
  // The test seam for a crash between an Enter and the entry's done mark (src/test-hold.ts): it
  // holds the first entry about to be recorded done, which for a typed message is right after
  // its Enter.
  const hold = testHold(process.env);
  const inFlight = new Set<string>();
  const running = new Set<Promise<void>>();

  /** Each entry once, in arrival order per lane (the order entries are submitted in). */
  const submit = (entry: InboxEntry<T>): void => {
    if (inFlight.has(entry.key)) return;
    inFlight.add(entry.key);
    const itemLogger = logger.child({ entry: entry.key, ...options.logFields(entry.value) });
    const run = lanes
      .run(options.laneOf(entry.value), async () => {
        const done = finishOnce(inbox, entry.key);
        const outcome = await runHandler(options.handle, entry.value, {
          done: async () => {
            await hold('after-enter', entry.key);
            await done();
          },
          mark: (mark) => inbox.mark(entry.key, mark),
          // Read back from disk: only a well-formed mark is acted on.
          ...(isSubmitMark(entry.mark) ? { resume: entry.mark } : {}),
          logger: itemLogger,
        });
        options.handled?.(entry.value, outcome);
      })
      .catch((error: unknown) => {
        logger.error(
          { event: 'inbox.handle_failed', key: entry.key, err: error },
          'inbox entry failed',
        );
      })
      .finally(() => {
        inFlight.delete(entry.key);
        running.delete(run);
      });
    running.add(run);
  };

  const acceptor = createInboxAcceptor<T>({
    inbox,
    ledger: options.ledger,
    idsOf: options.idsOf,
    laneOf: options.laneOf,
    handOn: (entry) => {
      options.accepted?.(entry.value);
      submit(entry);
    },
    duplicate: options.duplicate,
    ...(options.quiet ? { quiet: options.quiet } : {}),
    logger,
  });
  return {
    accept: (message) => acceptor.accept(message),
    recover: () => acceptor.recover(),
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
