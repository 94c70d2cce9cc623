import type { SignalSource, StopSignal } from './cli-io.js';

const stopSignals: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * Resolves with the first SIGINT or SIGTERM, or with undefined once `cancel` aborts; either way it
 * stops listening, so no handler of ours outlives the wait.
 */
export function waitForStop(
  signals: SignalSource,
  cancel?: AbortSignal,
): Promise<StopSignal | undefined> {
  return new Promise((resolve) => {
    const handlers = new Map<StopSignal, () => void>();
    const finish = (signal: StopSignal | undefined): void => {
      for (const [each, handler] of handlers) signals.off(each, handler);
      cancel?.removeEventListener('abort', onAbort);
      resolve(signal);
    };
    const onAbort = (): void => finish(undefined);
    for (const signal of stopSignals) handlers.set(signal, () => finish(signal));
    for (const [signal, handler] of handlers) signals.once(signal, handler);
    if (cancel?.aborted) finish(undefined);
    else cancel?.addEventListener('abort', onAbort);
  });
}
