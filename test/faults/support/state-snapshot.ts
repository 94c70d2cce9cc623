import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file under the state root, relative, with a hash of its content (a socket shows as
 * `socket`), leaving out the event log, which grows with every request. Two equal snapshots mean
 * nothing was recorded, created or removed in between.
 */
export async function stateSnapshot(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => ({ entry, file: path.relative(root, path.join(entry.parentPath, entry.name)) }))
    .filter(({ file }) => file !== 'events.jsonl')
    .sort((a, b) => (a.file < b.file ? -1 : 1));
  const snapshot: Record<string, string> = {};
  for (const { entry, file } of files) {
    snapshot[file] = entry.isSocket()
      ? 'socket'
      : createHash('sha256')
          .update(await readFile(path.join(root, file)))
          .digest('hex')
          .slice(0, 16);
  }
  return snapshot;
}
