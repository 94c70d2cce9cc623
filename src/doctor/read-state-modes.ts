import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../errors.js';
import type { StateEntry, StateModeFacts } from './check-state-modes.js';

/**
 * Every folder, file and socket under the state root with its permission bits. Symbolic links are
 * listed as nothing and not followed: their own mode means nothing and their target is not ours.
 */
export async function readStateModes(root: string): Promise<StateModeFacts> {
  const entries: StateEntry[] = [];
  try {
    await visit(root, entries);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' && entries.length === 0) return { root, exists: false };
    throw error;
  }
  return { root, exists: true, entries };
}

async function visit(target: string, entries: StateEntry[]): Promise<void> {
  const stats = await lstat(target);
  if (stats.isSymbolicLink()) return;
  const mode = stats.mode & 0o777;
  if (!stats.isDirectory()) {
    entries.push({ path: target, kind: 'file', mode });
    return;
  }
  entries.push({ path: target, kind: 'folder', mode });
  for (const name of await readdir(target)) {
    await visit(path.join(target, name), entries).catch((error: unknown) => {
      // A file serve removed while we walked (a delivered inbox entry) is no finding.
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
  }
}
