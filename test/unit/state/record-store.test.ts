import { chmod, mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopError } from '../../../src/errors.js';
import { createRecordStore, type RecordStore } from '../../../src/state/record-store.js';
import { makeTempDir, modeOf, withUmask, type TempDir } from '../../helpers/fs-fixtures.js';
import { captureLogger } from '../../helpers/capture-logger.js';

interface Note {
  readonly title: string;
  readonly n: number;
}

function isNote(value: unknown): value is Note {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Note).title === 'string' &&
    typeof (value as Note).n === 'number'
  );
}

let temp: TempDir;
let dir: string;
let log: ReturnType<typeof captureLogger>;
let store: RecordStore<Note>;

beforeEach(async () => {
  temp = await makeTempDir();
  dir = path.join(temp.path, 'deep', 'er', 'notes');
  log = captureLogger();
  store = createRecordStore({ dir, validate: isNote, logger: log.logger });
});

afterEach(async () => {
  await temp.remove();
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isLoopError(error) ? error.code : `not a LoopError: ${String(error)}`;
  }
  return undefined;
}

describe('createRecordStore', () => {
  it('round-trips a record through one JSON file named after its key', async () => {
    await store.write('first', { title: 'hello', n: 1 });
    expect(await store.read('first')).toEqual({ title: 'hello', n: 1 });
    expect(JSON.parse(await readFile(path.join(dir, 'first.json'), 'utf8'))).toEqual({
      title: 'hello',
      n: 1,
    });
    expect(await readdir(dir)).toEqual(['first.json']);
  });

  it('reads a missing record as undefined and lists a missing folder as empty', async () => {
    expect(await store.read('nothing')).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('creates files 0600 and every missing folder 0700 whatever the umask', async () => {
    await withUmask(0o277, () => store.write('a', { title: 'a', n: 1 }));
    expect(await modeOf(path.join(dir, 'a.json'))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(temp.path, 'deep', 'er'))).toBe(0o700);
    expect(await modeOf(path.join(temp.path, 'deep'))).toBe(0o700);
  });

  it('keeps 0600 when overwriting a file someone widened', async () => {
    await store.write('a', { title: 'a', n: 1 });
    await chmod(path.join(dir, 'a.json'), 0o644);
    await store.write('a', { title: 'a', n: 2 });
    expect(await modeOf(path.join(dir, 'a.json'))).toBe(0o600);
  });

  it.each(['../x', 'a/b', 'A', '', 'x\n', '.hidden', 'a..b', 'x'.repeat(121)])(
    'refuses the key %j everywhere with invalid_name and touches nothing',
    async (key) => {
      expect(await codeOf(store.read(key))).toBe('invalid_name');
      expect(await codeOf(store.write(key, { title: 'x', n: 0 }))).toBe('invalid_name');
      expect(await codeOf(store.remove(key))).toBe('invalid_name');
      expect(await readdir(temp.path)).toEqual([]);
    },
  );

  it('lists records sorted by key', async () => {
    for (const key of ['b', 'a10', 'a2', '0', 'a']) await store.write(key, { title: key, n: 0 });
    const listed = await store.list();
    expect(listed.map((entry) => entry.key)).toEqual(['0', 'a', 'a10', 'a2', 'b']);
    expect(listed[3]).toEqual({ key: 'a2', value: { title: 'a2', n: 0 } });
  });

  it('skips corrupt and invalid files with one warning each, and recovers on rewrite', async () => {
    await store.write('good', { title: 'ok', n: 1 });
    await writeFile(path.join(dir, 'broken.json'), '{"title": "half');
    await writeFile(path.join(dir, 'wrong.json'), '{"title": 3}');
    expect(await store.read('broken')).toBeUndefined();
    expect(await store.read('broken')).toBeUndefined();
    expect(await store.read('wrong')).toBeUndefined();
    expect(await store.list()).toEqual([{ key: 'good', value: { title: 'ok', n: 1 } }]);
    expect(await store.list()).toHaveLength(1);

    const warnings = log.lines.filter((line) => line.event === 'state.record_corrupt');
    expect(warnings.map((line) => path.basename(String(line.file))).sort()).toEqual([
      'broken.json',
      'wrong.json',
    ]);
    expect(warnings.every((line) => line.level === 40)).toBe(true);

    await store.write('broken', { title: 'fixed', n: 2 });
    expect(await store.read('broken')).toEqual({ title: 'fixed', n: 2 });
  });

  it('treats an unreadable record (a folder in its place) as absent with a warning', async () => {
    await mkdir(path.join(dir, 'odd.json'), { recursive: true });
    expect(await store.read('odd')).toBeUndefined();
    expect(await store.list()).toEqual([]);
    expect(log.events()).toEqual(['state.file_not_regular']);
  });

  it('ignores files that are not records', async () => {
    await store.write('real', { title: 'r', n: 1 });
    await writeFile(path.join(dir, 'notes.txt'), 'hi');
    await writeFile(path.join(dir, 'UPPER.json'), '{"title":"u","n":1}');
    await writeFile(path.join(dir, '.hidden.json'), '{"title":"h","n":1}');
    expect((await store.list()).map((entry) => entry.key)).toEqual(['real']);
  });

  it('ignores temp files and removes only those older than a minute', async () => {
    await store.write('real', { title: 'r', n: 1 });
    const fresh = path.join(dir, '.real.json.123.aaaa.tmp');
    const stale = path.join(dir, '.real.json.456.bbbb.tmp');
    await writeFile(fresh, '{"title":');
    await writeFile(stale, '{"title":');
    const old = new Date(Date.now() - 120_000);
    await utimes(stale, old, old);

    expect((await store.list()).map((entry) => entry.key)).toEqual(['real']);
    expect((await readdir(dir)).sort()).toEqual(['.real.json.123.aaaa.tmp', 'real.json']);
    expect(log.events()).toEqual([]);
  });

  it('uses the injected clock to age temp files', async () => {
    const later = createRecordStore({
      dir,
      validate: isNote,
      logger: log.logger,
      clock: () => new Date(Date.now() + 61_000),
    });
    await later.write('real', { title: 'r', n: 1 });
    await writeFile(path.join(dir, '.real.json.1.cccc.tmp'), '');
    await later.list();
    expect(await readdir(dir)).toEqual(['real.json']);
  });

  it('lets the last of many concurrent writes to one key win, leaving no temp files', async () => {
    const writes = Array.from({ length: 50 }, (_, n) =>
      store.write('hot', { title: 'x'.repeat(5_000 + n), n }),
    );
    await Promise.all(writes);
    expect((await store.read('hot'))?.n).toBe(49);
    expect(await readdir(dir)).toEqual(['hot.json']);
  });

  it('orders a remove after the writes called before it', async () => {
    const pending = [store.write('k', { title: 't', n: 1 }), store.remove('k')];
    const [, removed] = await Promise.all(pending);
    expect(removed).toBe(true);
    expect(await store.read('k')).toBeUndefined();
  });

  it('removes a record and says whether there was one', async () => {
    await store.write('gone', { title: 'g', n: 1 });
    expect(await store.remove('gone')).toBe(true);
    expect(await store.remove('gone')).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses to write a value its own validator rejects', async () => {
    const bad = { title: 7 } as unknown as Note;
    expect(await codeOf(store.write('bad', bad))).toBe('internal');
    expect(await store.list()).toEqual([]);
  });

  it('recreates its folder if it is removed between writes', async () => {
    await store.write('a', { title: 'a', n: 1 });
    await rm(dir, { recursive: true });
    await store.write('b', { title: 'b', n: 2 });
    expect((await store.list()).map((entry) => entry.key)).toEqual(['b']);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('lists thousands of records, all of them, in key order', async () => {
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: 3_000 }, (_, n) =>
        writeFile(path.join(dir, `r${String(n).padStart(5, '0')}.json`), `{"title":"t","n":${n}}`),
      ),
    );
    const listed = await store.list();
    expect(listed).toHaveLength(3_000);
    expect(listed.map((entry) => entry.value.n)).toEqual(
      Array.from({ length: 3_000 }, (_, n) => n),
    );
  });
});
