import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileExclusive,
  createFolderSync,
  writeFileAtomic,
} from '../../../src/state/write-file-atomic.js';
import { writeFileAtomicSync } from '../../../src/state/write-file-atomic-sync.js';
import { makeTempDir, modeOf, withUmask, type TempDir } from '../../helpers/fs-fixtures.js';

let temp: TempDir;
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.remove();
});

describe('writeFileAtomic', () => {
  it('replaces a file and leaves no temp file', async () => {
    const file = path.join(temp.path, 'a.json');
    await writeFile(file, 'old');
    expect(await writeFileAtomic(file, 'new')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('new');
    expect(await readdir(temp.path)).toEqual(['a.json']);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('exclusive: creates a missing file but never replaces one', async () => {
    const file = path.join(temp.path, 'b.json');
    expect(await writeFileAtomic(file, 'first', { exclusive: true })).toBe(true);
    expect(await writeFileAtomic(file, 'second', { exclusive: true })).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await readdir(temp.path)).toEqual(['b.json']);
  });

  it('cleans up its temp file when the final step fails', async () => {
    const target = path.join(temp.path, 'dir-in-the-way');
    await writeFile(path.join(temp.path, 'keep'), '');
    await import('node:fs/promises').then(({ mkdir }) =>
      mkdir(path.join(target, 'child'), { recursive: true }),
    );
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow();
    expect((await readdir(temp.path)).sort()).toEqual(['dir-in-the-way', 'keep']);
  });
});

describe('writeFileAtomicSync', () => {
  it('replaces a file, mode 0600, and leaves no temp file', async () => {
    const file = path.join(temp.path, 'c.json');
    await writeFile(file, 'old');
    writeFileAtomicSync(file, 'new ✓');
    expect(await readFile(file, 'utf8')).toBe('new ✓');
    expect(await readdir(temp.path)).toEqual(['c.json']);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('cleans up its temp file when the rename fails, and says so', async () => {
    const target = path.join(temp.path, 'dir-in-the-way');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(target, 'child'), { recursive: true });
    expect(() => writeFileAtomicSync(target, 'x')).toThrow();
    expect(await readdir(temp.path)).toEqual(['dir-in-the-way']);
  });
});

describe('createFolderSync', () => {
  it('lets calls that come together share one sync, and never counts a sync begun before a call', async () => {
    const begun: Array<{ dir: string; finish: () => void }> = [];
    const sync = createFolderSync(
      (dir) => new Promise<void>((resolve) => begun.push({ dir, finish: resolve })),
    );
    const settled: string[] = [];
    const track = (name: string, promise: Promise<void>) => promise.then(() => settled.push(name));
    const first = [track('a', sync('/s/inbox')), track('b', sync('/s/inbox'))];
    const other = track('other', sync('/s/dedupe'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(begun.map((each) => each.dir)).toEqual(['/s/inbox', '/s/dedupe']);

    // Called while the first sync of the folder runs: it may have renamed after that sync began.
    const late = track('c', sync('/s/inbox'));
    begun[0]?.finish();
    await Promise.all(first);
    expect(settled).toEqual(['a', 'b']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(begun.map((each) => each.dir)).toEqual(['/s/inbox', '/s/dedupe', '/s/inbox']);
    begun[2]?.finish();
    begun[1]?.finish();
    await Promise.all([late, other]);
    expect(settled).toEqual(['a', 'b', 'c', 'other']);
  });
});

describe('createFileExclusive', () => {
  it('creates a missing file 0600, durable, and never replaces one', async () => {
    const file = path.join(temp.path, 'claim.json');
    await withUmask(0o277, async () => {
      expect(await createFileExclusive(file, 'first')).toBe(true);
    });
    expect(await createFileExclusive(file, 'second')).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await modeOf(file)).toBe(0o600);
    expect(await readdir(temp.path)).toEqual(['claim.json']);
  });
});
