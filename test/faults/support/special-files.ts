import { open } from 'node:fs/promises';
import { constants } from 'node:fs';
import { execa } from 'execa';

/** Makes a named pipe at `file` (mkfifo(1): Node has no call for it). */
export async function makeFifo(file: string): Promise<void> {
  await execa('mkfifo', ['-m', '600', file]);
}

/**
 * Opens and closes each FIFO for writing without blocking: a reader stuck in open(2) on one is
 * released (it then reads end-of-file), so a serve that did block lets its threads go when the
 * test ends. A FIFO nobody reads answers ENXIO, which is fine: nothing is stuck on it.
 */
export async function releaseFifos(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const handle = await open(file, constants.O_WRONLY | constants.O_NONBLOCK).catch(
      () => undefined,
    );
    await handle?.close();
  }
}

/** Resolves with what `work` resolves with, or with `timedOut` after `ms`. */
export async function within<T>(ms: number, work: Promise<T>): Promise<T | 'timedOut'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timedOut'>((resolve) => {
    timer = setTimeout(() => resolve('timedOut'), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
