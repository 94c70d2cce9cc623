import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDedupeLedger } from '../../../src/state/create-dedupe-ledger.js';
import { createInbox } from '../../../src/state/create-inbox.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { captureLogger } from '../../helpers/capture-logger.js';

const isText = (value: unknown): value is { text: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { text?: unknown }).text === 'string';

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

describe('dedupe ledger', () => {
  it('lets exactly one concurrent claim of an id win, and remembers it across instances', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-dedupe-'));
    const ledger = createDedupeLedger({ dir, logger: silentLogger() });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => ledger.claim('slack:event:Ev1')),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const again = createDedupeLedger({ dir, logger: silentLogger() });
    expect(await again.claim('slack:event:Ev1')).toBe(false);
    expect(await again.has('slack:event:Ev1')).toBe(true);
    expect(await again.claim('../../etc/passwd')).toBe(true);
    expect((await readdir(dir)).every((name) => /^[0-9a-f]{40}\.json$/.test(name))).toBe(true);
  });

  it('prunes ids older than the retention', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-dedupe-'));
    let now = Date.now();
    const ledger = createDedupeLedger({
      dir,
      logger: silentLogger(),
      retentionMs: 1000,
      clock: () => now,
    });
    await ledger.claim('old');
    now += 60_000;
    expect(await ledger.prune()).toBe(1);
    expect(await ledger.claim('old')).toBe(true);
  });
});

describe('dedupe ledger owners', () => {
  it('lets the owner of a claim claim it again, and nobody else', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-dedupe-'));
    const ledger = createDedupeLedger({ dir, logger: silentLogger() });
    expect(await ledger.claim('slack:message:C1:1.0', 'entry-a')).toBe(true);
    expect(await ledger.claim('slack:message:C1:1.0', 'entry-a')).toBe(true);
    expect(await ledger.claim('slack:message:C1:1.0', 'entry-b')).toBe(false);
    expect(await ledger.claim('slack:message:C1:1.0')).toBe(false);
  });
});

describe('dedupe ledger after a crash mid-claim', () => {
  /** The record a claim of `id` lives in, made empty or cut short as a crash can leave it. */
  const damage = async (dir: string, id: string, text: string): Promise<void> => {
    const ledger = createDedupeLedger({ dir, logger: silentLogger() });
    expect(await ledger.claim(id, 'entry-before-the-crash')).toBe(true);
    const [name] = await readdir(dir);
    await writeFile(path.join(dir, name ?? ''), text);
  };

  it.each([
    ['empty', ''],
    ['cut short', '{"at":17'],
    ['without an owner', '{"at":17}\n'],
  ])(
    'lets the recovered entry take over a record left %s, then holds it for that entry',
    async (_, text) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'loop-dedupe-'));
      await damage(dir, 'github:comment:7', text);
      const log = captureLogger();
      const ledger = createDedupeLedger({ dir, logger: log.logger });
      expect(await ledger.claim('github:comment:7', 'entry-a')).toBe(true);
      expect(log.events()).toContain('dedupe.record_taken_over');
      // Taken over means held: the twin recovered after it is a duplicate.
      expect(await ledger.claim('github:comment:7', 'entry-b')).toBe(false);
      expect(await ledger.claim('github:comment:7', 'entry-a')).toBe(true);
    },
  );

  it('never lets a claim without an owner take a damaged record', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-dedupe-'));
    await damage(dir, 'slack:event:Ev9', '');
    const ledger = createDedupeLedger({ dir, logger: silentLogger() });
    expect(await ledger.claim('slack:event:Ev9')).toBe(false);
  });

  it('lets exactly one of many concurrent owners win an id, none reading a half-written record', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-dedupe-'));
    const log = captureLogger();
    const ledger = createDedupeLedger({ dir, logger: log.logger });
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, index) => ledger.claim('slack:message:C1:2.0', `e${index}`)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(log.events()).not.toContain('dedupe.record_taken_over');
  });
});
