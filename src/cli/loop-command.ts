import { fileURLToPath } from 'node:url';

/**
 * The argv that runs this CLI again, for the hooks and `the-loop post` of the sessions serve
 * starts. Absolute, so it works from any cwd; this file sits at dist/cli/ (or src/cli/ under the
 * tests), two folders below bin/.
 */
export function loopCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('../../bin/the-loop', import.meta.url))];
}
