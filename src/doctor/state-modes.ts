// The state folder: read its file modes, and check that no one else can read them.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../errors.js';
import { fail, ok, type DoctorCheck } from './doctor-check.js';

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

export interface StateEntry {
  readonly path: string;
  readonly kind: 'folder' | 'file';
  /** The permission bits (`stat.mode & 0o777`). */
  readonly mode: number;
}

export type StateModeFacts =
  | { readonly root: string; readonly exists: false }
  | { readonly root: string; readonly exists: true; readonly entries: readonly StateEntry[] };

const octal = (mode: number) => `0${mode.toString(8)}`;

/**
 * The state root holds session tokens and people's messages: folders 0700 and files 0600
 * (docs/design.md §3.4). Anything other users may read or enter fails.
 */
export function checkStateModes(facts: StateModeFacts): DoctorCheck {
  if (!facts.exists) {
    return ok('state', `${facts.root} does not exist yet; serve creates it with mode 0700`);
  }
  const open = facts.entries.filter((entry) => (entry.mode & 0o077) !== 0);
  if (open.length === 0) {
    return ok('state', `${facts.root}: ${facts.entries.length} entries, none open to other users`);
  }
  const first = open[0];
  const example = first === undefined ? '' : `, e.g. ${first.path} (${octal(first.mode)})`;
  return fail(
    'state',
    `${open.length} of ${facts.entries.length} entries under ${facts.root} are open to other users${example}`,
    `run \`chmod -R go-rwx ${facts.root}\` (folders must be 0700, files 0600)`,
  );
}
