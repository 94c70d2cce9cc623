import { LoopError } from '../errors.js';

/**
 * Knows whether a just-spawned session can take input yet. A harness adapter calls `spawned` when
 * it starts a session and `ready` when the session says so (Claude Code's SessionStart hook, or a
 * command's ready pattern). A session this process never saw spawn — one that was already running
 * when `serve` started — counts as ready.
 */
export interface ReadinessTracker {
  spawned(target: string): void;
  ready(target: string): void;
  forget(target: string): void;
  isReady(target: string): boolean;
  waitUntilReady(target: string, timeoutMs: number): Promise<void>;
}

export function createReadinessTracker(): ReadinessTracker {
  const waiting = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  const settle = (target: string): void => {
    const entry = waiting.get(target);
    waiting.delete(target);
    entry?.resolve();
  };

  return {
    spawned(target) {
      if (waiting.has(target)) return;
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      waiting.set(target, { promise, resolve });
    },
    ready: settle,
    forget: settle,
    isReady(target) {
      return !waiting.has(target);
    },
    async waitUntilReady(target, timeoutMs) {
      const entry = waiting.get(target);
      if (!entry) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(
            new LoopError(
              'delivery_failed',
              `session \`${target}\` did not become ready within ${Math.round(timeoutMs / 1000)} s; ` +
                `look at it with \`tmux attach -r -t '=${target}'\``,
            ),
          );
        }, timeoutMs);
      });
      try {
        await Promise.race([entry.promise, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
