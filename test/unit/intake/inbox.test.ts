import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/create-logger.js';
import { createInbox } from '../../../src/intake/inbox.js';
import { createRecordStore } from '../../../src/state/record-store.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { asUnprivileged, makeTempDir, modeOf, type TempDir } from '../../helpers/fs-fixtures.js';

interface Text {
  readonly text: string;
}

const isText = (value: unknown): value is Text =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { text?: unknown }).text === 'string';

const key = (ms: number, seq = 0, pid = 1) =>
  `${String(ms).padStart(15, '0')}-${String(seq).padStart(6, '0')}-${pid}`;
const isBatchName = (name: string) => /^batch-[\d-]+\.json$/.test(name);
const isDoneName = (name: string) => /^batch-[\d-]+\.done\.json$/.test(name);

/** The texts in each batch file, in file-name order. */
async function batchTexts(dir: string): Promise<string[][]> {
  const names = (await readdir(dir)).filter(isBatchName).sort();
  return Promise.all(
    names.map(async (name) => {
      const body = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as {
        entries: Array<{ value: Text }>;
      };
      return body.entries.map((entry) => entry.value.text);
    }),
  );
}

const texts = (entries: ReadonlyArray<{ value: Text }>) => entries.map((entry) => entry.value.text);

let temp: TempDir | undefined;
afterEach(async () => {
  await temp?.remove();
  temp = undefined;
});

async function folder(): Promise<string> {
  temp = await makeTempDir('the-loop-inbox-');
  return temp.path;
}

describe('inbox group commit', () => {
  it('writes the adds of one tick as one batch file, and resolves each only once it is on disk', async () => {
    const dir = path.join(await folder(), 'inbox', 'slack');
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    const onDiskAtResolve: boolean[] = [];
    const adds = ['a', 'b', 'c', 'd'].map((text) =>
      inbox.add({ text }).then((entry) => {
        // Synchronously at resolution: an early resolve would find the file missing.
        onDiskAtResolve.push(
          readdirSync(dir)
            .filter(isBatchName)
            .some((name) => readFileSync(path.join(dir, name), 'utf8').includes(entry.key)),
        );
        return entry;
      }),
    );
    const entries = await Promise.all(adds);
    expect(onDiskAtResolve).toEqual([true, true, true, true]);
    expect(await batchTexts(dir)).toEqual([['a', 'b', 'c', 'd']]);
    expect(readdirSync(dir)).toEqual([`batch-${entries[0]?.key}.json`]);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, `batch-${entries[0]?.key}.json`))).toBe(0o600);
    expect(texts(await inbox.pending())).toEqual(['a', 'b', 'c', 'd']);
  });

  it('creates its folder, 0700, on the first pending() — before the origin connects', async () => {
    // Recovery runs before Slack connects: the first write of a burst then finds the folder there
    // and does not wait for a mkdir behind the thread pool while the burst is being read.
    const dir = path.join(await folder(), 'inbox', 'slack');
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    expect(await inbox.pending()).toEqual([]);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('puts adds made while a batch is being written into the next batch, in order', async () => {
    const dir = await folder();
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    const first = inbox.add({ text: 'a' });
    // Runs after the write of `a` has begun (its start is queued first, in the same check phase).
    const later = await new Promise<Array<Promise<unknown>>>((resolve) =>
      setImmediate(() => resolve([inbox.add({ text: 'b' }), inbox.add({ text: 'c' })])),
    );
    await Promise.all([first, ...later]);
    expect(await batchTexts(dir)).toEqual([['a'], ['b', 'c']]);
    expect(texts(await inbox.pending())).toEqual(['a', 'b', 'c']);
  });

  it('keeps arrival order across batches and old one-file-per-entry files', async () => {
    const dir = await folder();
    const legacy = createRecordStore({ dir, validate: isText, logger: silentLogger() });
    await legacy.write(key(5), { text: 'old 5' });
    await legacy.write(key(20), { text: 'old 20' });
    let now = 10;
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger(), clock: () => now });
    await Promise.all(['a', 'b', 'c'].map((text) => inbox.add({ text })));
    now = 30;
    await Promise.all(['d', 'e'].map((text) => inbox.add({ text })));
    expect(await batchTexts(dir)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    const pending = await inbox.pending();
    expect(texts(pending)).toEqual(['old 5', 'a', 'b', 'c', 'old 20', 'd', 'e']);
    expect(pending.map((entry) => entry.key)).toEqual(pending.map((entry) => entry.key).sort());
  });

  it('remembers done entries across a restart, and removes a batch once all of it is done', async () => {
    const dir = await folder();
    const first = createInbox({ dir, validate: isText, logger: silentLogger() });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((text) => first.add({ text })));
    await first.done(a?.key ?? '');
    expect((await readdir(dir)).filter(isDoneName)).toHaveLength(1);
    expect(await modeOf(path.join(dir, `batch-${a?.key}.done.json`))).toBe(0o600);

    // A restart: a new inbox over the same folder.
    const second = createInbox({ dir, validate: isText, logger: silentLogger() });
    expect(texts(await second.pending())).toEqual(['b', 'c']);
    await second.done(b?.key ?? '');
    const third = createInbox({ dir, validate: isText, logger: silentLogger() });
    // done() without pending() first still finds the entry on disk.
    await third.done(c?.key ?? '');
    expect(await readdir(dir)).toEqual([]);
    expect(await createInbox({ dir, validate: isText, logger: silentLogger() }).pending()).toEqual(
      [],
    );
  });

  it('keeps every update when entries of one batch are done at once', async () => {
    const dir = await folder();
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    const entries = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => inbox.add({ text })),
    );
    await Promise.all(entries.slice(0, 5).map((entry) => inbox.done(entry.key)));
    const restarted = createInbox({ dir, validate: isText, logger: silentLogger() });
    expect(texts(await restarted.pending())).toEqual(['f']);

    const again = await Promise.all(['g', 'h', 'i'].map((text) => inbox.add({ text })));
    await Promise.all([...again, entries[5]].map((entry) => inbox.done(entry?.key ?? '')));
    expect(await readdir(dir)).toEqual([]);
  });

  it('returns old one-file-per-entry files and removes each when done; an unknown key is a no-op', async () => {
    const dir = await folder();
    const legacy = createRecordStore({ dir, validate: isText, logger: silentLogger() });
    await legacy.write(key(1), { text: 'left by the old inbox' });
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    const added = await inbox.add({ text: 'new' });
    expect(texts(await inbox.pending())).toEqual(['left by the old inbox', 'new']);
    await inbox.done(key(1));
    expect(await readdir(dir)).toEqual([`batch-${added.key}.json`]);
    await inbox.done(key(1));
    await inbox.done(key(99));
    expect(texts(await inbox.pending())).toEqual(['new']);
  });

  it('rejects every add of a batch that cannot be written, and records later ones', async () => {
    const dir = await folder();
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    await inbox.add({ text: 'before' });
    await chmod(dir, 0o500);
    const refused = await asUnprivileged(() =>
      Promise.allSettled([inbox.add({ text: 'x' }), inbox.add({ text: 'y' })]),
    );
    await chmod(dir, 0o700);
    expect(refused.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    const reason: unknown = refused[0]?.status === 'rejected' ? refused[0].reason : undefined;
    expect(reason).toMatchObject({ code: 'internal', message: expect.stringContaining(dir) });
    await inbox.add({ text: 'after' });
    expect(texts(await inbox.pending())).toEqual(['before', 'after']);
  });

  it('does not fail a done it cannot record, and records it with the next one', async () => {
    const dir = await folder();
    const log = captureLogger();
    const inbox = createInbox({ dir, validate: isText, logger: log.logger });
    const [a, b] = await Promise.all([
      inbox.add({ text: 'a' }),
      inbox.add({ text: 'b' }),
      inbox.add({ text: 'c' }),
    ]);
    await chmod(dir, 0o500);
    await asUnprivileged(() => inbox.done(a.key));
    await chmod(dir, 0o700);
    expect(log.events()).toContain('inbox.done_unrecorded');
    await inbox.done(b.key);
    const reread = createInbox({ dir, validate: isText, logger: silentLogger() });
    expect(texts(await reread.pending())).toEqual(['c']);
  });

  it('refuses to record a value that fails validation', async () => {
    const dir = await folder();
    const inbox = createInbox({ dir, validate: isText, logger: silentLogger() });
    await expect(inbox.add({ nope: 1 } as unknown as Text)).rejects.toMatchObject({
      code: 'internal',
    });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('inbox files that cannot be used', () => {
  it('skips each with one warning naming it, and returns everything else', async () => {
    const dir = await folder();
    const log = captureLogger();
    const writer = createInbox({ dir, validate: isText, logger: silentLogger() });
    const good = await Promise.all(['good 1', 'good 2'].map((text) => writer.add({ text })));
    const entry = (k: string, value: unknown) => JSON.stringify({ key: k, value });
    const batch = (...lines: string[]) => `{"version":1,"entries":[\n${lines.join(',\n')}\n]}\n`;
    const file = (name: string) => path.join(dir, name);
    const planted = {
      truncatedBatch: file(`batch-${key(1)}.json`),
      wrongShapeBatch: file(`batch-${key(2)}.json`),
      badDone: file(`batch-${key(3)}.done.json`),
      invalidEntry: file(`batch-${key(4)}.json`),
      truncatedLegacy: file(`${key(5)}.json`),
    };
    const whole = batch(entry(key(1), { text: 'torn 1' }), entry(key(1, 1), { text: 'torn 2' }));
    await writeFile(planted.truncatedBatch, whole.slice(0, whole.length / 2));
    await writeFile(planted.wrongShapeBatch, '["not", "a", "batch"]\n');
    // Its batch is whole; its done list is not, so both entries count as not done.
    await writeFile(
      file(`batch-${key(3)}.json`),
      batch(entry(key(3), { text: 'undone 1' }), entry(key(3, 1), { text: 'undone 2' })),
    );
    await writeFile(planted.badDone, '{"version":1,"do');
    await writeFile(
      planted.invalidEntry,
      batch(entry(key(4), { text: 'valid' }), entry(key(4, 1), { nope: 1 })),
    );
    await writeFile(planted.truncatedLegacy, '{"text":');
    // A batch whose write never finished: never read, however whole it looks.
    await writeFile(
      file(`.batch-${key(6)}.json.1.abcdef.tmp`),
      batch(entry(key(6), { text: 'uncommitted' })),
    );

    const inbox = createInbox({ dir, validate: isText, logger: log.logger });
    expect(texts(await inbox.pending())).toEqual([
      'undone 1',
      'undone 2',
      'valid',
      'good 1',
      'good 2',
    ]);
    await inbox.pending();
    const warned = log.lines
      .filter((line) => line['level'] === 40)
      .map((line) => [line['event'], line['file']]);
    expect(warned.sort()).toEqual(
      Object.values(planted)
        .map((name) => ['state.record_corrupt', name])
        .sort(),
    );

    // Done rewrites the bad done list, and the good batch goes as usual.
    await inbox.done(key(3));
    await Promise.all(good.map((each) => inbox.done(each.key)));
    const restarted = createInbox({ dir, validate: isText, logger: silentLogger() });
    expect(texts(await restarted.pending())).toEqual(['undone 2', 'valid']);
    expect(await readdir(dir)).not.toContain(`batch-${good[0]?.key}.json`);
  });
});

describe('inbox', () => {
  it('returns entries in arrival order, even within one millisecond or when the clock steps back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-inbox-'));
    const times = [5, 5, 5, 4, 6];
    const inbox = createInbox({
      dir,
      validate: isText,
      logger: silentLogger(),
      clock: () => times.shift() ?? 7,
    });
    for (const text of ['a', 'b', 'c', 'd', 'e']) await inbox.add({ text });
    expect((await inbox.pending()).map((entry) => entry.value.text)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('forgets an entry once it is done, and a new inbox over the same folder sees what was left', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-inbox-'));
    const first = createInbox({ dir, validate: isText, logger: silentLogger() });
    const a = await first.add({ text: 'a' });
    await first.add({ text: 'b' });
    await first.done(a.key);
    const second = createInbox({ dir, validate: isText, logger: silentLogger() });
    expect((await second.pending()).map((entry) => entry.value.text)).toEqual(['b']);
  });
});
