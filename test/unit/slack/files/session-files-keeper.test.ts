import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionFilesKeeper } from '../../../../src/slack/files/session-files-keeper.js';
import { sweepSessionFiles } from '../../../../src/slack/files/sweep-session-files.js';
import { captureLogger } from '../../../helpers/capture-logger.js';
import { makeTempDir, type TempDir } from '../../../helpers/fs-fixtures.js';

let temp: TempDir;
let dir: string;
const day = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  temp = await makeTempDir('loop-files-');
  dir = path.join(temp.path, 'files', 'loop-standing-a');
  await mkdir(dir, { recursive: true });
});

afterEach(async () => {
  await temp.remove();
});

async function put(name: string, ageMs: number, now = Date.now()): Promise<void> {
  const file = path.join(dir, name);
  await writeFile(file, name);
  const when = new Date(now - ageMs);
  await utimes(file, when, when);
}

describe('sweepSessionFiles', () => {
  it('removes .part leftovers older than the part age, whatever the week', async () => {
    const now = Date.now();
    await put('report.pdf.1a2b3c4d.part', 20 * 60 * 1000, now); // a download killed 20 min ago
    await put('big.bin.99aa00bb.part', 30 * 1000, now); // perhaps still being written
    await put('notes.txt', 2 * day, now);
    expect(await sweepSessionFiles(temp.path, now)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['big.bin.99aa00bb.part', 'notes.txt']);
    // At start no download runs: every .part file goes.
    expect(await sweepSessionFiles(temp.path, now, 7 * day, 0)).toBe(1);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });
});

describe('sessionFilesKeeper', () => {
  it('sweeps at start (every .part) and again on each interval while serving', async () => {
    const log = captureLogger();
    let now = Date.now();
    await put('cut.bin.00000000.part', 1_000, now);
    await put('fresh.txt', 0, now);
    const keeper = sessionFilesKeeper(temp.path, log.logger, { intervalMs: 20, clock: () => now });
    await keeper.start();
    try {
      expect(await readdir(dir)).toEqual(['fresh.txt']);
      // Eight days later, with serve still running, the hourly sweep takes the old file and a
      // .part left by a download killed meanwhile.
      await put('later.bin.11111111.part', 0, now);
      now += 8 * day;
      await log.waitFor((line) => line['event'] === 'files.swept' && line['removed'] === 2);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      keeper.stop();
    }
  });

  it('stops sweeping once stopped', async () => {
    const log = captureLogger();
    let now = Date.now();
    const keeper = sessionFilesKeeper(temp.path, log.logger, { intervalMs: 10, clock: () => now });
    await keeper.start();
    keeper.stop();
    await put('old.txt', 0, now);
    now += 8 * day;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await readdir(dir)).toEqual(['old.txt']);
  });
});
