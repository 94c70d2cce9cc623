import path from 'node:path';
import { LoopError } from '../errors.js';
import { readOutsideFile } from '../files/read-outside-file.js';

/**
 * What the CLI reads at most of one `--file` before serve even sees it; serve then holds a post's
 * files to `slack.files.maxBytes` together, which the CLI cannot know (the session has no config).
 */
export const cliMaxFileBytes = 100 * 1024 * 1024;

export interface PostFile {
  readonly name: string;
  readonly contentBase64: string;
}

/**
 * Reads each `--file` of `the-loop post` in the CLI's own process (docs/design.md §18): with the
 * agent's permissions and its own /proc/self, through the one opener (only a regular file, opened
 * without blocking, checked on the open descriptor), and sends the bytes, never the path.
 */
export async function readPostFiles(cwd: string, files: readonly string[]): Promise<PostFile[]> {
  const read: PostFile[] = [];
  for (const file of files) {
    const absolute = path.resolve(cwd, file);
    const bytes = await readOutsideFile(absolute, { maxBytes: cliMaxFileBytes }).catch(
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        const code = error instanceof LoopError ? error.code : 'bad_request';
        throw new LoopError(code, `--file ${absolute}: ${reason}`);
      },
    );
    read.push({ name: path.basename(absolute), contentBase64: bytes.toString('base64') });
  }
  return read;
}
