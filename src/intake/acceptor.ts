import type { Logger } from '../log/create-logger.js';
import type { DedupeLedger } from './dedupe-ledger.js';
import { isDoneAt } from './done-rule.js';
import type { Inbox, InboxEntry } from './inbox.js';

export interface InboxAcceptor<T> {
  /** Resolves once the message is recorded: the origin may then have its acknowledgement. */
  accept(message: T): Promise<void>;
  /** After a restart, before reconnecting: hands on what the inbox still holds, oldest first. */
  recover(): Promise<number>;
}

/**
 * How a surface takes a message in (docs/design.md §9): record it in the inbox (then the origin may be
 * told), claim its ids in the dedupe ledger, and hand it on unless another entry holds them. Each
 * lane (a Slack thread, a work item) hands its messages on in arrival order — the turn is taken
 * before anything awaits — while their disk writes run side by side.
 */
export function createInboxAcceptor<T>(options: {
  readonly inbox: Inbox<T>;
  readonly ledger: DedupeLedger;
  readonly idsOf: (message: T) => readonly string[];
  readonly laneOf: (message: T) => string;
  readonly handOn: (entry: InboxEntry<T>) => void;
  readonly duplicate: (message: T) => void;
  /** When given, a recorded message is judged and handed on only once arrivals pause. */
  readonly quiet?: QuietGate;
  readonly logger: Logger;
}): InboxAcceptor<T> {
  const { inbox, ledger, idsOf } = options;
  const turns = new Map<string, Promise<void>>();
  const claimAll = async (entry: InboxEntry<T>): Promise<boolean> => {
    const claims = await Promise.all(idsOf(entry.value).map((id) => ledger.claim(id, entry.key)));
    return !claims.includes(false);
  };
  const settle = async (entry: InboxEntry<T>, claimed: boolean): Promise<void> => {
    if (claimed) {
      options.handOn(entry);
      return;
    }
    if (isDoneAt('duplicate')) await inbox.done(entry.key);
    options.duplicate(entry.value);
  };

  return {
    accept(message) {
      const lane = options.laneOf(message);
      options.quiet?.touch();
      const recording = inbox.add(message);
      const judged = recording.then(async (entry) => {
        // A write that held the loop for longer than quietMs is not a pause in arrivals: the
        // frames behind it are still unread. Counting from its end keeps the gate shut until
        // they are (docs/design.md §10).
        options.quiet?.touch();
        await options.quiet?.wait();
        return { entry, claimed: await claimAll(entry) };
      });
      const turn = Promise.all([turns.get(lane), judged]).then(([, { entry, claimed }]) =>
        settle(entry, claimed),
      );
      const settled = turn.catch((error: unknown) => {
        options.logger.error(
          { event: 'inbox.accept_failed', lane, err: error },
          'message not accepted',
        );
      });
      turns.set(lane, settled);
      void settled.then(() => {
        if (turns.get(lane) === settled) turns.delete(lane);
      });
      return recording.then(() => undefined);
    },
    async recover() {
      const pending = await inbox.pending();
      // An entry whose ids another entry holds is a duplicate recorded just before a crash (the
      // twin of a message, or a redelivery); the rest go on in order.
      for (const entry of pending) await settle(entry, await claimAll(entry));
      return pending.length;
    },
  };
}

/**
 * Lets work wait until arrivals have paused: `wait()` resolves once nothing has `touch`-ed the gate
 * for `quietMs`, or `maxWaitMs` after the first waiter, whichever comes first. The Slack intake
 * uses it so a burst is read, recorded and acknowledged before the work each message starts (dedupe
 * claims, tmux processes) competes with it for the one thread (docs/design.md §9, §10).
 */
export interface QuietGate {
  touch(): void;
  wait(): Promise<void>;
}

export function createQuietGate(options: {
  readonly quietMs: number;
  readonly maxWaitMs: number;
  readonly now?: () => number;
}): QuietGate {
  const now = options.now ?? (() => performance.now());
  let lastTouch = Number.NEGATIVE_INFINITY;
  let firstWaitAt = 0;
  let waiting: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;

  const check = (): void => {
    timer = undefined;
    const due = Math.min(lastTouch + options.quietMs, firstWaitAt + options.maxWaitMs);
    const left = due - now();
    if (left > 0) {
      timer = setTimeout(check, left);
      return;
    }
    const released = waiting;
    waiting = [];
    for (const resolve of released) resolve();
  };

  return {
    touch() {
      lastTouch = now();
    },
    wait() {
      return new Promise<void>((resolve) => {
        if (waiting.length === 0) firstWaitAt = now();
        waiting.push(resolve);
        timer ??= setTimeout(check, 0);
      });
    },
  };
}
