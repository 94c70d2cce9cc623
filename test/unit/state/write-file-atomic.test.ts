import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/state/write-file-atomic.js';
import { writeFileAtomicSync } from '../../../src/state/write-file-atomic-sync.js';
import { makeTempDir, modeOf, type TempDir } from '../../helpers/fs-fixtures.js';

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
