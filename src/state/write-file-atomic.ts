import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { errnoCode } from '../errors.js';
import { createGroupCommit } from './group-commit.js';
import { tempFileName } from './temp-file-name.js';

export const privateFileMode = 0o600;

// Plain descriptors through the callback API, not fs/promises' FileHandle: every state write goes
// through here (claims, inbox batches, records), and a FileHandle costs the loop about twice the
// CPU of a descriptor. All of it stays asynchronous: creating, chmod-ing, renaming or removing a
// file can wait for a journal commit that another thread's fsync forced, and synchronous, that
// wait held the loop (under the webhook bench, half of serve's thread sat in open(2)).
const open = promisify(fs.open);
const fchmod = promisify(fs.fchmod);
const write = promisify(fs.write);
const fsync = promisify(fs.fsync);
const close = promisify(fs.close);
const link = promisify(fs.link);
const rename = promisify(fs.rename);
const unlink = promisify(fs.unlink);

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
    await writeNewFile(temp, data);
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
    if (!renamed) await removeBestEffort(temp);
  }
}

/**
 * Creates `file` with `data` unless it exists (O_EXCL: exactly one caller across processes gets
 * true), fsyncs it and its folder. Cheaper than writeFileAtomic's exclusive mode — no temp file,
 * link or unlink — for records whose readers accept that a crash during the write can leave the
 * file empty or cut short (the dedupe ledger takes such a record over). A failed write removes
 * what it created.
 */
export async function createFileExclusive(file: string, data: string): Promise<boolean> {
  try {
    await writeNewFile(file, data);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    await removeBestEffort(file);
    throw error;
  }
  await syncDir(path.dirname(file));
  return true;
}

/** Creates `file` (never an existing one), 0600 whatever the umask, with `data`, fsync-ed. */
async function writeNewFile(file: string, data: string): Promise<void> {
  const fd = await open(file, 'wx', privateFileMode);
  try {
    // The umask may have narrowed the mode (or a wider one may be forced by ACLs): set it exactly.
    await fchmod(fd, privateFileMode);
    const bytes = Buffer.from(data, 'utf8');
    for (let offset = 0; offset < bytes.length;) {
      offset += (await write(fd, bytes, offset, bytes.length - offset)).bytesWritten;
    }
    await fsync(fd);
  } finally {
    await close(fd);
  }
}

/**
 * Makes the names created or removed in `dir` so far durable. Calls for one folder that come
 * together share one fsync of it (a group commit): a sync covers every rename that finished before
 * it began, and each call waits for a sync that begins after the call. Under load — many dedupe
 * claims and inbox writes in one folder — that saves an open, an fsync and a close per file.
 */
export const syncDir = createFolderSync(syncDirNow);

export function createFolderSync(
  syncNow: (dir: string) => Promise<void>,
): (dir: string) => Promise<void> {
  // One entry per folder ever synced: a process has a handful of state folders.
  const folders = new Map<string, (item: undefined) => Promise<void>>();
  return (dir) => {
    let commit = folders.get(dir);
    if (commit === undefined) {
      commit = createGroupCommit<undefined>(() => syncNow(dir));
      folders.set(dir, commit);
    }
    return commit(undefined);
  };
}

async function syncDirNow(dir: string): Promise<void> {
  const fd = await open(dir, 'r');
  try {
    await fsync(fd);
  } finally {
    await close(fd);
  }
}

async function removeBestEffort(file: string): Promise<void> {
  // Best effort: the temp file may never have been created, and a leftover one is swept later by
  // the store that owns the folder, so a failure here must not mask the error being reported.
  await unlink(file).catch(() => undefined);
}
