import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { execa } from 'execa';
import { errnoCode } from '../../../src/errors.js';

/** Filling a disk for real needs a file system of its own, a small tmpfs, which only root may mount. */
export const canMountTmpfs = process.getuid?.() === 0;

/** Says once why a file's full-disk tests are skipped. */
export function sayWhySkipped(what: string): void {
  if (!canMountTmpfs) process.stdout.write(`${what} skipped: mounting a small tmpfs needs root\n`);
}

/** Mounts small tmpfs folders for a test and unmounts them in its afterEach. */
export function smallTmpfs(): {
  mount(dir: string, size: string): Promise<void>;
  /** Room again, mid-test: the folder's own files come back. */
  unmount(dir: string): Promise<void>;
  unmountAll(): Promise<void>;
} {
  const mounted: string[] = [];
  return {
    async mount(dir, size) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await execa('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
      mounted.push(dir);
    },
    async unmount(dir) {
      await execa('umount', ['-l', dir]);
      mounted.splice(mounted.indexOf(dir), 1);
    },
    async unmountAll() {
      for (const dir of mounted.splice(0).reverse()) {
        await execa('umount', ['-l', dir], { reject: false });
      }
    },
  };
}

/** Writes `file` until the file system says ENOSPC, `chunkBytes` at a time. */
export function fillUp(file: string, chunkBytes: number): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(chunkBytes, 0x61);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if (errnoCode(error) !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}
