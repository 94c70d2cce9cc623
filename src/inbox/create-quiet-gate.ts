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
