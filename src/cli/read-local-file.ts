import path from 'node:path';
import { LoopError } from '../errors.js';
import { readOutsideFile } from '../files/read-outside-file.js';

/** A message or a brief goes to serve in one request body, which holds at most 1 MiB. */
const maxTextFileBytes = 1024 * 1024;

/**
 * Reads a file a person named on the command line, relative to where they are, through the one
 * opener (docs/design.md §18): a FIFO or a device named by mistake is refused, not waited on.
 */
export async function readLocalFile(cwd: string, file: string, flag: string): Promise<string> {
  const absolute = path.resolve(cwd, file);
  try {
    return (await readOutsideFile(absolute, { maxBytes: maxTextFileBytes })).toString('utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoopError('bad_request', `cannot read ${absolute} (${reason}): check ${flag}`);
  }
}
