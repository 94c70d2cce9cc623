import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { errnoCode } from '../errors.js';

/** A write that has not finished in this long belongs to a process that died mid-write. */
export const staleTempAgeMs = 60_000;

/**
 * Removes temporary files that a crashed writer left behind. Young ones are left alone: they may
 * belong to a write still in progress, in this process or another one.
 */
export async function sweepTempFiles(
  dir: string,
  names: readonly string[],
  now: Date,
  logger: Logger,
): Promise<number> {
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stats = await lstat(file);
      if (now.getTime() - stats.mtimeMs <= staleTempAgeMs) continue;
      await unlink(file);
      removed += 1;
    } catch (error) {
      // Another sweeper or the finishing writer got there first: nothing is left to clean.
      if (errnoCode(error) === 'ENOENT') continue;
      logger.warn(
        { event: 'state.temp_cleanup_failed', file, err: error },
        'cannot remove a stale temp file',
      );
    }
  }
  return removed;
}
