/** A check run now and then: `check()` once now, or `start()` for every interval until `stop()`. */
export interface Ticker {
  check(): Promise<void>;
  start(): void;
  stop(): void;
}

/**
 * Runs `check` every `intervalMs`, one at a time: a slow check is not piled up behind itself, and
 * the timer never keeps the process alive. A check that fails is told to `failed` and the next
 * tick tries again.
 */
export function createTicker(
  check: () => Promise<void>,
  intervalMs: number,
  failed: (error: unknown) => void,
): Ticker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = (): void => {
    running ??= check()
      .catch(failed)
      .finally(() => {
        running = undefined;
      });
  };
  return {
    check,
    start() {
      timer ??= setInterval(tick, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
