import { readFile, stat } from 'node:fs/promises';
import type { Config } from '../config/types.js';
import { LoopError } from '../errors.js';
import { allowedCwd } from './allowed-cwd.js';
import type { StandingDefinition, StandingSource } from './standing-types.js';

export interface Startable {
  /** The configured brief: `prompt`, or the contents of `promptFile`. */
  readonly brief?: string;
  /** Where to start it: for a created session, the real path checked against allowedRoots. */
  readonly cwd: string;
}

/**
 * Everything a start needs that can be checked without touching tmux: the harness is configured,
 * the cwd is a folder (for a created session: really under allowedRoots, checked at every start),
 * the prompt file can be read. `restart` runs this before it stops anything.
 */
export async function checkStartable(
  definition: StandingDefinition,
  source: StandingSource,
  config: Config,
): Promise<Startable> {
  if (!config.harnesses[definition.harness]) {
    throw new LoopError(
      'harness_unknown',
      `session \`${definition.name}\` uses harness \`${definition.harness}\`, which is not configured; ` +
        `configured harnesses: ${Object.keys(config.harnesses).join(', ')}`,
    );
  }
  const isDir = await stat(definition.cwd).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isDir) {
    throw new LoopError(
      'spawn_failed',
      `session \`${definition.name}\` cannot start: its cwd \`${definition.cwd}\` is not a folder; ` +
        'create it or change the session’s cwd',
      { path: definition.cwd },
    );
  }
  // Declared sessions come from the config, which allowedRoots does not limit (docs/design.md §3.3).
  const cwd = source === 'created' ? await allowedCwd(definition.cwd, config) : definition.cwd;
  if (definition.promptFile) {
    const brief = await readFile(definition.promptFile, 'utf8').catch(() => undefined);
    if (brief === undefined) {
      throw new LoopError(
        'spawn_failed',
        `session \`${definition.name}\` cannot start: its promptFile \`${definition.promptFile}\` ` +
          'cannot be read; create it or fix the path',
        { path: definition.promptFile },
      );
    }
    return { brief, cwd };
  }
  return definition.prompt ? { brief: definition.prompt, cwd } : { cwd };
}
