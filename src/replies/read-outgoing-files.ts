import { open } from 'node:fs/promises';
import path from 'node:path';
import { LoopError } from '../errors.js';
import { errnoCode } from '../state/errno-code.js';
import type { OutgoingFile } from './outgoing-file.js';

/** What one `the-loop post` may attach: Slack takes far larger files, but serve reads them whole. */
export const maxOutgoingFileBytes = 100 * 1024 * 1024;
export const maxOutgoingFiles = 10;

/**
 * Reads the files a session attaches to a post. The paths come from `the-loop post`, which
 * resolved them in the session's cwd; serve runs as the same user, so it reads nothing the
 * session could not. Only regular files are read.
 */
export async function readOutgoingFiles(value: unknown): Promise<OutgoingFile[]> {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > maxOutgoingFiles) {
    throw new LoopError(
      'bad_request',
      `files must be a list of at most ${maxOutgoingFiles} {path} objects`,
    );
  }
  const files: OutgoingFile[] = [];
  for (const entry of value) {
    const file =
      typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const filePath = file['path'];
    if (typeof filePath !== 'string' || !path.isAbsolute(filePath)) {
      throw new LoopError('bad_request', 'each file needs an absolute `path`');
    }
    files.push({ name: path.basename(filePath), content: await readRegularFile(filePath) });
  }
  return files;
}

async function readRegularFile(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, 'r').catch((error: unknown) => {
    const code = errnoCode(error);
    throw new LoopError(
      code === 'ENOENT' ? 'not_found' : 'bad_request',
      `cannot read ${filePath} (${code ?? 'unknown error'})`,
    );
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new LoopError('bad_request', `${filePath} is not a regular file`);
    if (info.size > maxOutgoingFileBytes) {
      throw new LoopError(
        'payload_too_large',
        `${filePath} is ${info.size} bytes; the-loop post attaches files up to 100 MB`,
      );
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
