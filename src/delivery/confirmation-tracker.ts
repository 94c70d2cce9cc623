/**
 * Matches the prompt a harness reports receiving (Claude Code's UserPromptSubmit hook) to the
 * delivery waiting on that session. Deliveries to one session are serialised, so at most one is
 * pending per target; a report that matches nothing (a person typing in tmux) is ignored.
 */
export interface ConfirmationTracker {
  /** Registers the expectation before the prompt is submitted, so a fast hook is not missed. */
  expect(target: string, text: string): PendingConfirmation;
  /** Returns true when the report confirmed a pending delivery. */
  report(target: string, prompt: string): boolean;
}

export interface PendingConfirmation {
  wait(timeoutMs: number): Promise<boolean>;
  cancel(): void;
}

export function normalizePrompt(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

export function createConfirmationTracker(): ConfirmationTracker {
  interface Entry {
    readonly text: string;
    confirmed: boolean;
    notify: () => void;
  }
  const pending = new Map<string, Entry>();

  return {
    expect(target, text) {
      const entry: Entry = {
        text: normalizePrompt(text),
        confirmed: false,
        notify: () => undefined,
      };
      pending.set(target, entry);
      const confirmed = new Promise<void>((resolve) => {
        entry.notify = resolve;
        if (entry.confirmed) resolve();
      });
      return {
        async wait(timeoutMs) {
          if (entry.confirmed) return true;
          let timer: NodeJS.Timeout | undefined;
          const timedOut = new Promise<false>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs);
          });
          try {
            return await Promise.race([confirmed.then(() => true as const), timedOut]);
          } finally {
            clearTimeout(timer);
          }
        },
        cancel() {
          if (pending.get(target) === entry) pending.delete(target);
        },
      };
    },
    report(target, prompt) {
      const entry = pending.get(target);
      if (!entry || entry.confirmed || normalizePrompt(prompt) !== entry.text) return false;
      entry.confirmed = true;
      pending.delete(target);
      entry.notify();
      return true;
    },
  };
}
