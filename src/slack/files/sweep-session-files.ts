import { readdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../../state/errno-code.js';
import { filesRoot, sessionFilesDir } from './session-files-dir.js';

/** Files people sent are kept a week (DESIGN §17). */
export const sessionFilesMaxAgeMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Removes files older than `maxAgeMs` from every session's files folder (run at serve start);
 * the folders stay, since a running agent was given them. Returns how many files went.
 */
export async function sweepSessionFiles(
  stateRoot: string,
  now: number,
  maxAgeMs = sessionFilesMaxAgeMs,
): Promise<number> {
  const root = filesRoot(stateRoot);
  let removed = 0;
  for (const session of await entries(root)) {
    const dir = path.join(root, session);
    for (const name of await entries(dir)) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile() && now - info.mtimeMs > maxAgeMs) {
        await unlink(file);
        removed += 1;
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
