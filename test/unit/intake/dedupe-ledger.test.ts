import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDedupeLedger, createDedupePruner } from '../../../src/intake/dedupe-ledger.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';

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

describe('createDedupePruner', () => {
  let temp: TempDir;
  const day = 24 * 60 * 60 * 1000;

  beforeEach(async () => {
    temp = await makeTempDir('loop-dedupe-');
  });

  afterEach(async () => {
    await temp.remove();
  });

  it('keeps pruning while serving: entries past their window go on a later tick, not only at start', async () => {
    const log = captureLogger();
    const dir = path.join(temp.path, 'dedupe');
    const ledger = createDedupeLedger({ dir, logger: log.logger });
    const pruner = createDedupePruner({ ledger, logger: log.logger, intervalMs: 20 });
    await pruner.start();
    try {
      // Seen while serving, after the start prune.
      for (const id of ['Ev1', 'Ev2', 'gh-delivery-3']) expect(await ledger.claim(id)).toBe(true);
      expect(await readdir(dir)).toHaveLength(3);
      // A week and a day pass (the ledger dates an entry by its file's mtime).
      const past = new Date(Date.now() - 8 * day);
      for (const name of await readdir(dir)) await utimes(path.join(dir, name), past, past);
      expect(await ledger.claim('Ev4')).toBe(true); // within the window: stays
      await log.waitFor((line) => line['event'] === 'dedupe.pruned' && line['removed'] === 3);
      expect(await readdir(dir)).toHaveLength(1);
      expect(await ledger.has('Ev4')).toBe(true);
      expect(await ledger.has('Ev1')).toBe(false);
      // A pruned id can be claimed again: it is new once more.
      expect(await ledger.claim('Ev1')).toBe(true);
    } finally {
      pruner.stop();
    }
  });

  it('says so when a prune fails, and goes on', async () => {
    const log = captureLogger();
    const failing = {
      claim: () => Promise.resolve(true),
      has: () => Promise.resolve(false),
      prune: () => Promise.reject(new Error('disk gone')),
    };
    const pruner = createDedupePruner({ ledger: failing, logger: log.logger, intervalMs: 10_000 });
    await pruner.start();
    pruner.stop();
    expect(log.events()).toEqual(['dedupe.prune_failed']);
  });
});
