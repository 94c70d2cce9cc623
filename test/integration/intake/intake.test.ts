import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDedupeLedger } from '../../../src/intake/dedupe-ledger.js';
import { createIntake, type IntakeHandler } from '../../../src/intake/intake.js';
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

  const open = (handle: IntakeHandler<Note, string>) => {
    const log = captureLogger();
    const logger = log.logger;
    const duplicates: string[] = [];
    const handled: string[] = [];
    const intake = createIntake<Note, string>({
      dir: path.join(dir, 'inbox'),
      validate: isNote,
      ledger: createDedupeLedger({ dir: path.join(dir, 'dedupe'), logger }),
      idsOf: (note) => [note.id],
      laneOf: (note) => note.lane,
      logFields: (note) => ({ noteId: note.id }),
      handle,
      handled: (note, outcome) => handled.push(`${note.id}:${outcome}`),
      duplicate: (note) => duplicates.push(note.id),
      logger,
    });
    return { intake, duplicates, handled, log };
  };
  const entries = async () =>
    (await readdir(path.join(dir, 'inbox')).catch(() => [])).filter((name) =>
      name.endsWith('.json'),
    );

  it('hands each message on once, in order per lane, and drops a redelivery', async () => {
    const seen: string[] = [];
    const { intake, duplicates } = open(async ({ message }) => {
      seen.push(message.text);
      return { outcome: 'seen' };
    });
    await intake.accept({ id: 'a', lane: 't1', text: 'first' });
    await intake.accept({ id: 'b', lane: 't1', text: 'second' });
    await intake.accept({ id: 'a', lane: 't1', text: 'first again' });
    await expect.poll(() => duplicates).toEqual(['a']);
    await expect.poll(() => seen).toEqual(['first', 'second']);
  });

  it('marks the entry done when it is typed, else when its handler returns; always before it is told', async () => {
    const pendingAtAnswer: number[] = [];
    const pendingAtTell: number[] = [];
    const { intake, handled, log } = open(async ({ message, typed, logger }) => {
      // The delivery core calls `typed` right after the Enter (its onSubmitted).
      if (message.text === 'typed') await typed();
      pendingAtAnswer.push((await entries()).length);
      logger.info({ event: 'test.handling' }, 'handling');
      return {
        outcome: message.text,
        tell: async () => {
          pendingAtTell.push((await entries()).length);
        },
      };
    });
    await intake.accept({ id: 'm', lane: 'x', text: 'typed' });
    await expect.poll(() => pendingAtAnswer.length).toBe(1);
    await intake.idle();
    await intake.accept({ id: 'n', lane: 'x', text: 'not typed' });
    await expect.poll(() => pendingAtAnswer.length).toBe(2);
    await intake.idle();
    // Done at the Enter: a crash then cannot hand it on (type it) again.
    expect(pendingAtAnswer).toEqual([0, 1]);
    // Done before the person is told, typed or not.
    expect(pendingAtTell).toEqual([0, 0]);
    expect(handled).toEqual(['m:typed', 'n:not typed']);
    expect(await entries()).toEqual([]);
    // Each handler's logger carries its message's ids, enriched once by the intake.
    expect(
      log.lines.filter((line) => line['event'] === 'test.handling').map((line) => line['noteId']),
    ).toEqual(['m', 'n']);
  });

  it('recovers what a crashed process left recorded but not done', async () => {
    const first = open(() => new Promise(() => undefined)); // never finishes: "crashed"
    await first.intake.accept({ id: 'r', lane: 'x', text: 'left over' });
    expect(await entries()).toHaveLength(1);
    const seen: string[] = [];
    const second = open(async ({ message }) => {
      seen.push(message.text);
      return { outcome: 'seen' };
    });
    expect(await second.intake.recover()).toBe(1);
    await expect.poll(() => seen).toEqual(['left over']);
    await second.intake.idle();
    await expect.poll(entries).toEqual([]);
  });
});
