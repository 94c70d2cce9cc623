import { setTimeout as delay } from 'node:timers/promises';

/**
 * Polls `check` until it returns a value: for effects in other processes (a fake agent appending a
 * line, `serve` answering on its socket), where there is no event to await.
 */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { readonly what: string; readonly timeoutMs?: number; readonly intervalMs?: number },
): Promise<T> {
  const deadline = performance.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) {
      throw new Error(`bench: timed out after ${options.timeoutMs ?? 30_000} ms: ${options.what}`);
    }
    await delay(options.intervalMs ?? 10);
  }
}
