import { readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDedupeLedger } from '../../../src/state/create-dedupe-ledger.js';
import { createDedupePruner } from '../../../src/state/create-dedupe-pruner.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';

let temp: TempDir;
const day = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  temp = await makeTempDir('loop-dedupe-');
});

afterEach(async () => {
  await temp.remove();
});

describe('createDedupePruner', () => {
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
