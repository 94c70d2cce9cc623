import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/create-logger.js';
import { cacheRecordStore } from '../../../src/state/cached-record-store.js';
import { createRecordStore, type RecordStore } from '../../../src/state/record-store.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';

interface Note {
  readonly n: number;
}
const isNote = (value: unknown): value is Note =>
  typeof value === 'object' && value !== null && typeof (value as Note).n === 'number';

let temp: TempDir;
let disk: RecordStore<Note>;
let cached: RecordStore<Note>;

beforeEach(async () => {
  temp = await makeTempDir();
  disk = createRecordStore({ dir: temp.path, validate: isNote, logger: silentLogger() });
  cached = cacheRecordStore(disk);
});

afterEach(async () => {
  await temp.remove();
});

const keysOf = async (store: RecordStore<Note>) =>
  (await store.list()).map(({ key, value }) => `${key}=${value.n}`);

describe('cacheRecordStore', () => {
  it('lists what is on disk, then what it writes and removes, in key order', async () => {
    await disk.write('b', { n: 2 });
    await disk.write('a', { n: 1 });
    expect(await keysOf(cached)).toEqual(['a=1', 'b=2']);
    await cached.write('c', { n: 3 });
    await cached.write('a', { n: 10 });
    expect(await cached.remove('b')).toBe(true);
    expect(await keysOf(cached)).toEqual(['a=10', 'c=3']);
    expect(await cached.read('a')).toEqual({ n: 10 });
    expect(await cached.read('b')).toBeUndefined();
    // Every change reached the disk as well.
    expect(await keysOf(disk)).toEqual(['a=10', 'c=3']);
  });

  it('reads no files once loaded: a file changed behind its back is not seen', async () => {
    await cached.write('a', { n: 1 });
    await cached.list();
    await writeFile(path.join(temp.path, 'a.json'), '{"n": 99}');
    expect(await cached.read('a')).toEqual({ n: 1 });
  });

  it('reads from disk until the first listing', async () => {
    await disk.write('a', { n: 1 });
    expect(await cached.read('a')).toEqual({ n: 1 });
    await writeFile(path.join(temp.path, 'a.json'), '{"n": 2}');
    expect(await cached.read('a')).toEqual({ n: 2 });
  });

  it('keeps a write that lands while the first listing is still reading', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, n) => disk.write(`k${n}`, { n })));
    const listing = cached.list();
    const writing = cached.write('k0', { n: 1000 });
    const removing = cached.remove('k1');
    await Promise.all([listing, writing, removing]);
    const after = await cached.list();
    expect(after.find((entry) => entry.key === 'k0')?.value).toEqual({ n: 1000 });
    expect(after.some((entry) => entry.key === 'k1')).toBe(false);
    expect(after).toHaveLength(49);
  });

  it('skips a corrupt file as the disk store does', async () => {
    await writeFile(path.join(temp.path, 'torn.json'), '{"n"');
    await cached.write('a', { n: 1 });
    expect(await keysOf(cached)).toEqual(['a=1']);
  });
});
