import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LoopError } from '../errors.js';

/** Reads a file a person named on the command line, relative to where they are. */
export async function readLocalFile(cwd: string, file: string, flag: string): Promise<string> {
  const absolute = path.resolve(cwd, file);
  try {
    return await readFile(absolute, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoopError('bad_request', `cannot read ${absolute} (${reason}): check ${flag}`);
  }
}
