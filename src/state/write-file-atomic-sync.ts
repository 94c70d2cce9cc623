import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { tempFileName } from './temp-file-name.js';
import { privateFileMode } from './write-file-atomic.js';

/**
 * writeFileAtomic (temp file, fsync, rename, fsync of the folder) with synchronous calls. For the
 * one write an acknowledgement waits on: the asynchronous calls queue in libuv's thread pool
 * behind whatever else is there (in a burst, thousands of dedupe claims), so a write of a few
 * milliseconds took hundreds. Blocking the loop for the fsync is the cheaper wait.
 */
export function writeFileAtomicSync(file: string, data: string): void {
  const dir = path.dirname(file);
  const temp = path.join(dir, tempFileName(path.basename(file)));
  let renamed = false;
  try {
    const fd = openSync(temp, 'wx', privateFileMode);
    try {
      // The umask may have narrowed the mode: set it exactly.
      fchmodSync(fd, privateFileMode);
      const bytes = Buffer.from(data, 'utf8');
      for (let offset = 0; offset < bytes.length;) {
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    renamed = true;
    syncDirSync(dir);
  } finally {
    if (!renamed) removeBestEffort(temp);
  }
}

function syncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeBestEffort(file: string): void {
  // Best effort: the temp file may never have been created, and a leftover one is swept later by
  // the store that owns the folder, so a failure here must not mask the error being reported.
  try {
    unlinkSync(file);
  } catch {
    return;
  }
}
