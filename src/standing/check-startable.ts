import { readFile, stat } from 'node:fs/promises';
import type { Config } from '../config/types.js';
import { LoopError } from '../errors.js';
import type { StandingDefinition } from './standing-types.js';

export interface Startable {
  /** The configured brief: `prompt`, or the contents of `promptFile`. */
  readonly brief?: string;
}

/**
 * Everything a start needs that can be checked without touching tmux: the harness is configured,
 * the cwd is a folder, the prompt file can be read. `restart` runs this before it stops anything.
 */
export async function checkStartable(
  definition: StandingDefinition,
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
    return { brief };
  }
  return definition.prompt ? { brief: definition.prompt } : {};
}
