import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Finds a harness program the way the pane's exec will: an absolute or relative path as given,
 * a bare name on PATH. Returns undefined when nothing executable is there, so a missing binary
 * fails the one session with a message naming it instead of leaving a dead pane.
 */
export async function findExecutable(
  command: string,
  options: { cwd: string; pathVariable: string },
): Promise<string | undefined> {
  const candidates = command.includes('/')
    ? [path.resolve(options.cwd, command)]
    : options.pathVariable
        .split(path.delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
