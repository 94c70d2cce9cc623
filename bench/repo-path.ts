import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** A path in this repository, whatever folder the bench was started from. */
export function repoPath(...parts: string[]): string {
  return path.join(root, ...parts);
}
