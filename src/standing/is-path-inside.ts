import path from 'node:path';

/** True when `candidate` is `root` or below it (both absolute, already resolved). */
export function isPathInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
