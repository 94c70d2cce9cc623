import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createInbox } from '../../../src/intake/inbox.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';
import { liveChildren, runUntilKilled, type KilledRun } from '../../helpers/run-until-killed.js';
import { isCrashMessage, isHandled } from './inbox-crash-message.js';

const adder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'inbox-crash-adder.ts');

interface Run extends KilledRun {
  /** n of every add that resolved, by key. */
  readonly added: Map<string, number>;
  /** Keys whose done resolved. */
  readonly done: Set<string>;
}

/** Starts an adder over `dir` and SIGKILLs it `delayMs` after its first acknowledged add. */
async function runAndKill(dir: string, firstN: number, delayMs: number): Promise<Run> {
  const added = new Map<string, number>();
  const done = new Set<string>();
  const run = await runUntilKilled({
    script: adder,
    args: [dir, String(firstN)],
    delayMs,
    onLine: (line) => {
      const [what, key, n] = line.split(' ');
      if (what === 'added' && key && n) added.set(key, Number(n));
      if (what === 'done' && key) done.add(key);
    },
    // Counted from the first acknowledged add: recovered entries are reported (done) before it.
    armed: () => added.size > 0,
  });
  return { ...run, added, done };
}

const dirs: TempDir[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await dir.remove();
});
afterAll(() => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

async function lane(rounds: number, label: string): Promise<number> {
  const temp = await makeTempDir('the-loop-inbox-crash-');
  dirs.push(temp);
  const dir = path.join(temp.path, 'inbox');
  const everAdded = new Map<string, number>();
  const everDone = new Set<string>();
  for (let round = 0; round < rounds; round += 1) {
    const context = `${label}, round ${round}`;
    const run = await runAndKill(dir, round * 1_000_000, Math.floor(Math.random() * 60));
    expect(run.signal, `${context}: the adder ended on its own: ${run.stderr}`).toBe('SIGKILL');
    expect(run.added.size, `${context}: no add resolved`).toBeGreaterThan(0);
    for (const [key, n] of run.added) everAdded.set(key, n);
    for (const key of run.done) everDone.add(key);

    const log = captureLogger();
    const pending = await createInbox({
      dir,
      validate: isCrashMessage,
      logger: log.logger,
    }).pending();
    const keys = pending.map((entry) => entry.key);
    expect(
      log.lines.filter((line) => line['level'] === 40),
      `${context}: damaged files`,
    ).toEqual([]);
    expect(keys, `${context}: out of order`).toEqual([...new Set(keys)].sort());
    const left = new Set(keys);
    // Every resolved add is still there unless its done resolved; a resolved done never comes back.
    const lost = [...everAdded].filter(([key, n]) => !isHandled(n) && !left.has(key));
    expect(lost, `${context}: acknowledged messages lost`).toEqual([]);
    const back = keys.filter((key) => everDone.has(key));
    expect(back, `${context}: done messages back`).toEqual([]);
  }
  return everAdded.size;
}

describe('inbox under SIGKILL', () => {
  it('keeps every acknowledged add and forgets every acknowledged done, kill after kill', async () => {
    const added = await Promise.all([lane(8, 'lane 0'), lane(8, 'lane 1'), lane(8, 'lane 2')]);
    expect(added.every((count) => count > 0)).toBe(true);
  }, 90_000);
});
