import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../errors.js';
import { tempFileName } from './temp-file-name.js';

export const privateFileMode = 0o600;

export interface WriteFileAtomicOptions {
  /** Only create: leave an existing file alone and return false. */
  readonly exclusive?: boolean;
}

/**
 * Writes `data` so a reader sees either the old file or the whole new one, even if the process
 * dies at any point: the bytes go to a temporary file in the same folder, are fsync-ed, and the
 * name is switched over (rename, or link for an exclusive create); then the folder is fsync-ed so
 * the new name itself survives a crash. Returns false only when `exclusive` found a file there.
 */
export async function writeFileAtomic(
  file: string,
  data: string,
  options: WriteFileAtomicOptions = {},
): Promise<boolean> {
  const dir = path.dirname(file);
  const temp = path.join(dir, tempFileName(path.basename(file)));
  let renamed = false;
  try {
    const handle = await open(temp, 'wx', privateFileMode);
    try {
      // The umask may have narrowed the mode (or a wider one may be forced by ACLs): set it exactly.
      await handle.chmod(privateFileMode);
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.exclusive) {
      try {
        await link(temp, file);
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') return false;
        throw error;
      }
    } else {
      await rename(temp, file);
      renamed = true;
    }
    await syncDir(dir);
    return true;
  } finally {
    if (!renamed) await removeQuietly(temp);
  }
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function removeQuietly(file: string): Promise<void> {
  // Best effort: the temp file may never have been created, and a leftover one is swept later by
  // the store that owns the folder, so a failure here must not mask the error being reported.
  await unlink(file).catch(() => undefined);
}
