import { readdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../../errors.js';
import { filesRoot, sessionFilesDir } from './session-files-dir.js';

/** Files people sent are kept a week (docs/design.md §17). */
export const sessionFilesMaxAgeMs = 7 * 24 * 60 * 60 * 1000;

/** A download is cut off after 120 s; a `.part` file untouched this long belongs to none. */
export const partialFileMaxAgeMs = 10 * 60 * 1000;

/**
 * Removes files older than `maxAgeMs` from every session's files folder, and the `.part` files a
 * download killed midway left behind (those older than `partMaxAgeMs`: at serve start every one,
 * while serving only those no download can still be writing). The folders stay, since a running
 * agent was given them. Returns how many files went (docs/design.md §18 Files folder).
 */
export async function sweepSessionFiles(
  stateRoot: string,
  now: number,
  maxAgeMs = sessionFilesMaxAgeMs,
  partMaxAgeMs = partialFileMaxAgeMs,
): Promise<number> {
  const root = filesRoot(stateRoot);
  let removed = 0;
  for (const session of await entries(root)) {
    const dir = path.join(root, session);
    for (const name of await entries(dir)) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      const age = now - (info?.mtimeMs ?? now);
      const stale = name.endsWith('.part')
        ? partMaxAgeMs <= 0 || age > Math.min(partMaxAgeMs, maxAgeMs)
        : age > maxAgeMs;
      if (info?.isFile() && stale) {
        const gone = await unlink(file).then(
          () => true,
          (error: unknown) => {
            // Removed in between (a session deleted, a download finishing): nothing to count.
            if (errnoCode(error) === 'ENOENT') return false;
            throw error;
          },
        );
        if (gone) removed += 1;
      }
    }
  }
  return removed;
}

/** Removes a session's files folder and everything in it: call it when the session is deleted. */
export async function removeSessionFiles(stateRoot: string, tmuxName: string): Promise<void> {
  await rm(sessionFilesDir(stateRoot, tmuxName), { recursive: true, force: true });
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return [];
    throw error;
  }
}
