import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/create-logger.js';
import { createRecordStore } from '../../../src/state/record-store.js';
import { isTempFileName } from '../../../src/state/temp-file-name.js';
import { liveChildren, runUntilKilled, type KilledRun } from '../../helpers/run-until-killed.js';
import { crashKeys, isWholeCrashRecord } from './crash-record.js';

const writer = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crash-writer.ts');

/** Small seeded generator, so a failing run can be replayed from the seed in its message. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Run extends KilledRun {
  /** The highest seq acknowledged (write resolved) for each key. */
  readonly acked: Map<string, number>;
  readonly lastSeq: number;
}

/** Starts a writer, lets it write at least one record, then SIGKILLs it after `delayMs`. */
async function runAndKill(dir: string, firstSeq: number, delayMs: number): Promise<Run> {
  const acked = new Map<string, number>();
  let lastSeq = firstSeq - 1;
  const run = await runUntilKilled({
    script: writer,
    args: [dir, String(firstSeq)],
    delayMs,
    onLine: (line) => {
      const [key, seq] = line.split(' ');
      if (key === undefined || seq === undefined) return;
      acked.set(key, Number(seq));
      lastSeq = Number(seq);
    },
    armed: () => acked.size > 0,
  });
  return { ...run, acked, lastSeq };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'the-loop-crash-'));
});
afterAll(async () => {
  // A failed lane must not leave its siblings' writers running.
  for (const child of liveChildren) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/**
 * One lane: a writer started and killed `rounds` times over the same folder, each time checking
 * every record file on disk and the store's own listing.
 */
async function lane(
  records: string,
  rounds: number,
  next: () => number,
  label: string,
): Promise<number> {
  const store = createRecordStore({
    dir: records,
    validate: isWholeCrashRecord,
    logger: silentLogger(),
  });
  const everAcked = new Map<string, number>();
  let firstSeq = 0;
  let kills = 0;
  for (let round = 0; round < rounds; round += 1) {
    const context = `${label}, round ${round}`;
    const run = await runAndKill(records, firstSeq, Math.floor(next() * 40));
    expect(run.signal, `${context}: writer ended on its own: ${run.stderr}`).toBe('SIGKILL');
    kills += 1;
    for (const [key, seq] of run.acked) everAcked.set(key, seq);

    // Every record file on disk, read raw (not through the store, which would hide damage).
    const recordNames = (await readdir(records)).filter((name) => !isTempFileName(name));
    for (const name of recordNames) {
      const value = parseOrUndefined(await readFile(path.join(records, name), 'utf8'));
      expect(isWholeCrashRecord(value), `${context}: ${name} is not a whole record`).toBe(true);
      if (!isWholeCrashRecord(value)) continue;
      expect(`${value.key}.json`).toBe(name);
      // Acknowledged writes are never lost; at most the one write in flight may have landed.
      expect(value.seq, `${context}: ${name} went back`).toBeGreaterThanOrEqual(
        everAcked.get(value.key) ?? -1,
      );
      expect(value.seq, `${context}: ${name} is from the future`).toBeLessThanOrEqual(
        run.lastSeq + 1,
      );
    }

    const listed = await store.list();
    expect(listed.map((entry) => `${entry.key}.json`)).toEqual([...recordNames].sort());
    firstSeq = run.lastSeq + 2;
  }
  expect([...everAcked.keys()].sort(), label).toEqual([...new Set(crashKeys)].sort());
  return kills;
}

describe('record store under SIGKILL', () => {
  const lanes = 3;
  const roundsPerLane = 12;

  it(`leaves only whole records after ${lanes * roundsPerLane} kills at random moments`, async () => {
    const seed = Date.now();
    const next = random(seed);
    const kills = await Promise.all(
      Array.from({ length: lanes }, (_, n) =>
        lane(path.join(dir, `lane-${n}`), roundsPerLane, next, `seed ${seed}, lane ${n}`),
      ),
    );
    expect(kills.reduce((sum, count) => sum + count, 0)).toBe(lanes * roundsPerLane);
  }, 60_000);
});
