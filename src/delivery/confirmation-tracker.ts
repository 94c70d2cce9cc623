import { tagsIn, type DeliveryTag } from './delivery-tag.js';

/**
 * Matches the prompts a harness reports receiving (Claude Code's UserPromptSubmit hook) to the
 * deliveries waiting on that session, by their tags. Several can be pending on one session: a
 * message typed while the agent is busy waits until the turn ends, and Claude Code then merges
 * every waiting message into one prompt. A report that matches nothing (a person typing in tmux)
 * is ignored.
 */
export interface ConfirmationTracker {
  /** Registers the expectation before the prompt is submitted, so a fast hook is not missed. */
  expect(target: string, tag: DeliveryTag): PendingConfirmation;
  /** Confirms every pending delivery whose tag the prompt carries; returns how many. */
  report(target: string, prompt: string): number;
  /** Tags pending on the target (a new tag must differ from all of them). */
  pendingTags(target: string): ReadonlySet<DeliveryTag>;
}

export interface PendingConfirmation {
  readonly confirmed: boolean;
  wait(timeoutMs: number): Promise<boolean>;
  /** Confirms it from elsewhere (its tag seen in the transcript). */
  confirm(): void;
  cancel(): void;
}

export function createConfirmationTracker(): ConfirmationTracker {
  interface Entry {
    confirmed: boolean;
    readonly done: Promise<void>;
    notify: () => void;
  }
  const pending = new Map<string, Map<DeliveryTag, Entry>>();

  const settle = (target: string, tag: DeliveryTag, entry: Entry): void => {
    if (entry.confirmed) return;
    entry.confirmed = true;
    remove(target, tag, entry);
    entry.notify();
  };

  const remove = (target: string, tag: DeliveryTag, entry: Entry): void => {
    const tags = pending.get(target);
    if (tags?.get(tag) !== entry) return;
    tags.delete(tag);
    if (tags.size === 0) pending.delete(target);
  };

  return {
    expect(target, tag) {
      let notify: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        notify = resolve;
      });
      const entry: Entry = { confirmed: false, done, notify };
      const tags = pending.get(target) ?? new Map<DeliveryTag, Entry>();
      tags.set(tag, entry);
      pending.set(target, tags);
      return {
        get confirmed() {
          return entry.confirmed;
        },
        async wait(timeoutMs) {
          if (entry.confirmed) return true;
          let timer: NodeJS.Timeout | undefined;
          const timedOut = new Promise<false>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs);
          });
          try {
            return await Promise.race([entry.done.then(() => true as const), timedOut]);
          } finally {
            clearTimeout(timer);
          }
        },
        confirm: () => settle(target, tag, entry),
        cancel: () => remove(target, tag, entry),
      };
    },
    report(target, prompt) {
      const tags = pending.get(target);
      if (!tags) return 0;
      let confirmed = 0;
      for (const tag of tagsIn(prompt)) {
        const entry = tags.get(tag);
        if (!entry) continue;
        settle(target, tag, entry);
        confirmed += 1;
      }
      return confirmed;
    },
    pendingTags(target) {
      return new Set(pending.get(target)?.keys() ?? []);
    },
  };
}
