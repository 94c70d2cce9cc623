import { realpath } from 'node:fs/promises';
import type { Config } from '../config/types.js';
import { LoopError } from '../errors.js';
import { isPathInside } from './is-path-inside.js';

/**
 * The real path (after symlinks) of a created session's cwd, when it is under
 * `standing.allowedRoots`. Asked at create and again at every start: a folder under a root can
 * later be replaced by a symlink to anywhere, and the session must not follow it there.
 */
export async function allowedCwd(cwd: string, config: Config): Promise<string> {
  const real = await realpath(cwd).catch(() => undefined);
  if (!real) {
    throw new LoopError(
      'cwd_not_allowed',
      `cwd \`${cwd}\` does not exist; create it or pick another folder`,
    );
  }
  const roots = await Promise.all(
    config.standing.allowedRoots.map((root) => realpath(root).catch(() => root)),
  );
  if (!roots.some((root) => isPathInside(real, root))) {
    const shown = real === cwd ? `\`${cwd}\`` : `\`${cwd}\` (really \`${real}\`)`;
    throw new LoopError(
      'cwd_not_allowed',
      `cwd ${shown} is outside standing.allowedRoots (${config.standing.allowedRoots.join(', ') || 'none'}); ` +
        'pick a folder under one of them or add a root to the config',
    );
  }
  return real;
}
