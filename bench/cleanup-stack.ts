/**
 * What a scenario started (tmux servers, `serve` processes, fake servers, temporary folders), to be
 * undone last-in first-out whether the scenario finished, failed or was interrupted. A task that
 * fails does not stop the ones after it: leaving a tmux server behind is worse than a noisy exit.
 */
export interface CleanupStack {
  defer(what: string, task: () => Promise<unknown> | unknown): void;
  /** Runs every deferred task once; returns one line for each that failed. */
  run(): Promise<string[]>;
}

export function createCleanupStack(): CleanupStack {
  const tasks: Array<{ what: string; task: () => Promise<unknown> | unknown }> = [];
  return {
    defer(what, task) {
      tasks.push({ what, task });
    },
    async run() {
      const failures: string[] = [];
      for (let next = tasks.pop(); next; next = tasks.pop()) {
        try {
          await next.task();
        } catch (error) {
          failures.push(`${next.what}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return failures;
    },
  };
}
