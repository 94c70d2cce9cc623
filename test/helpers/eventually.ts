import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits for something another process does (a pane dies, a file appears). Only for effects outside
 * this process, where there is no event to await.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${options.what ?? 'condition'}`);
    await delay(options.intervalMs ?? 20);
  }
}
