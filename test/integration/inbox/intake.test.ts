import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIntake } from '../../../src/inbox/create-intake.js';
import { createDedupeLedger } from '../../../src/state/create-dedupe-ledger.js';
import { captureLogger } from '../../helpers/capture-logger.js';

interface Note {
  readonly id: string;
  readonly lane: string;
  readonly text: string;
}

const isNote = (value: unknown): value is Note =>
  typeof value === 'object' && value !== null && 'id' in value && 'lane' in value;

/** The one intake both surfaces use, on real folders: record, dedupe, hand on, done, recover. */
describe('createIntake', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-intake-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const open = (handle: (note: Note, done: () => Promise<void>) => Promise<void>) => {
    const logger = captureLogger().logger;
    const duplicates: string[] = [];
    const intake = createIntake<Note>({
      dir: path.join(dir, 'inbox'),
      validate: isNote,
      ledger: createDedupeLedger({ dir: path.join(dir, 'dedupe'), logger }),
      idsOf: (note) => [note.id],
      laneOf: (note) => note.lane,
      handle,
      duplicate: (note) => duplicates.push(note.id),
      logger,
    });
    return { intake, duplicates };
  };
  const entries = async () =>
    (await readdir(path.join(dir, 'inbox')).catch(() => [])).filter((name) =>
      name.endsWith('.json'),
    );

  it('hands each message on once, in order per lane, and drops a redelivery', async () => {
    const seen: string[] = [];
    const { intake, duplicates } = open(async (note) => {
      seen.push(note.text);
    });
    await intake.accept({ id: 'a', lane: 't1', text: 'first' });
    await intake.accept({ id: 'b', lane: 't1', text: 'second' });
    await intake.accept({ id: 'a', lane: 't1', text: 'first again' });
    await expect.poll(() => duplicates).toEqual(['a']);
    await expect.poll(() => seen).toEqual(['first', 'second']);
  });

  it('lets the handler mark the entry done before it answers; the rest are done on return', async () => {
    const pendingAtAnswer: number[] = [];
    const { intake } = open(async (note, done) => {
      if (note.text === 'marks') await done();
      pendingAtAnswer.push((await entries()).length);
    });
    await intake.accept({ id: 'm', lane: 'x', text: 'marks' });
    await expect.poll(() => pendingAtAnswer.length).toBe(1);
    await intake.idle();
    await intake.accept({ id: 'n', lane: 'x', text: 'does not' });
    await expect.poll(() => pendingAtAnswer.length).toBe(2);
    await intake.idle();
    // Done before its answer: a crash then cannot hand it on (type it) again.
    expect(pendingAtAnswer).toEqual([0, 1]);
    expect(await entries()).toEqual([]);
  });

  it('recovers what a crashed process left recorded but not done', async () => {
    const first = open(() => new Promise<void>(() => undefined)); // never finishes: "crashed"
    await first.intake.accept({ id: 'r', lane: 'x', text: 'left over' });
    expect(await entries()).toHaveLength(1);
    const seen: string[] = [];
    const second = open(async (note) => {
      seen.push(note.text);
    });
    expect(await second.intake.recover()).toBe(1);
    await expect.poll(() => seen).toEqual(['left over']);
    await second.intake.idle();
    await expect.poll(entries).toEqual([]);
  });
});
