import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLastSeq, rotateEventLog } from '../../../src/state/event-log-files.js';
import { openEventLog, type WrittenEvent } from '../../../src/state/event-log.js';
import { openState } from '../../../src/state/open-state.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';
import { readEvents } from '../../helpers/read-events.js';

let temp: TempDir;
let file: string;
let log: ReturnType<typeof captureLogger>;

beforeEach(async () => {
  temp = await makeTempDir();
  file = path.join(temp.path, 'events.jsonl');
  log = captureLogger();
});

afterEach(async () => {
  await temp.remove();
});

const line = (seq: number, event = 'tick') =>
  `${JSON.stringify({ ts: '2026-12-01T00:00:00.000Z', event, seq })}\n`;

describe('readLastSeq', () => {
  it.each([
    ['no log at all', {}, 0],
    ['an empty log', { 'events.jsonl': '' }, 0],
    ['a log written before numbering', { 'events.jsonl': '{"ts":"x","event":"old"}\n' }, 0],
    ['the last line', { 'events.jsonl': line(1) + line(2) + line(41) }, 41],
    [
      'past a corrupt tail',
      { 'events.jsonl': `${line(7)}${line(8)}\u0000\u0000garbage{"seq":99\n{not json}\n` },
      8,
    ],
    [
      'past a line whose seq is no count',
      { 'events.jsonl': `${line(3)}{"seq":-4}\n{"seq":1.5}\n` },
      3,
    ],
    [
      'the rotated file when the live one is empty',
      { 'events.jsonl': '', 'events.jsonl.1': line(70) },
      70,
    ],
    [
      'the rotated file when the live one is gone',
      { 'events.jsonl.1': line(5), 'events.jsonl.2': line(2) },
      5,
    ],
  ])('reads %s', async (_, files: Record<string, string>, expected) => {
    for (const [name, text] of Object.entries(files))
      await writeFile(path.join(temp.path, name), text);
    expect(await readLastSeq(file, log.logger)).toBe(expected);
  });

  it('finds the last numbered line behind more than one read of lines without one', async () => {
    const filler = '{"ts":"x","event":"unnumbered"}\n'.repeat(5_000); // ~160 kB
    await writeFile(file, line(12) + filler);
    expect(await readLastSeq(file, log.logger)).toBe(12);
  });

  it('is not stopped by a log that cannot be read: warns and looks at the older file', async () => {
    await mkdir(file);
    await writeFile(`${file}.1`, line(33));
    expect(await readLastSeq(file, log.logger)).toBe(33);
    expect(log.events()).toEqual(['events.seq_unreadable']);
  });
});

describe('sequence numbers', () => {
  it('go on from the last one on disk when the state is opened again', async () => {
    const first = await openState(temp.path, log.logger);
    first.events.record('serve.started');
    first.events.record('serve.stopped');
    await first.events.close();
    // A crash cut the last line short; the next serve still counts on from the last whole one.
    await writeFile(file, `${await readFile(file, 'utf8')}{"ts":"2026-12-01T0`);
    const second = await openState(temp.path, log.logger);
    second.events.record('serve.started');
    await second.events.close();
    expect((await readEvents(file)).map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it('announce each line once it is written, in order, and not after unsubscribing', async () => {
    const events = openEventLog({ path: file, logger: log.logger, lastSeq: 9 });
    const seen: WrittenEvent[] = [];
    const unsubscribe = events.subscribe((written) => seen.push(written));
    events.record('a', { ref: 'standing:x' });
    events.record('b');
    expect(seen).toEqual([]);
    expect(events.lastWritten()).toBe(9);
    await events.flush();
    expect(seen.map((written) => [written.seq, written.event])).toEqual([
      [10, 'a'],
      [11, 'b'],
    ]);
    expect(JSON.parse(seen[0]?.line ?? '')).toMatchObject({ seq: 10, ref: 'standing:x' });
    expect(events.lastWritten()).toBe(11);
    unsubscribe();
    events.record('c');
    await events.close();
    expect(seen).toHaveLength(2);
  });

  it('are never announced for lines the disk did not take', async () => {
    await mkdir(file); // every append fails
    const events = openEventLog({ path: file, logger: log.logger });
    const seen: number[] = [];
    events.subscribe((written) => seen.push(written.seq));
    events.record('lost');
    await events.close();
    expect(seen).toEqual([]);
    expect(events.lastWritten()).toBe(0);
  });

  it('cannot be forged by a field named seq', async () => {
    const events = openEventLog({ path: file, logger: log.logger });
    events.record('e', { seq: 1_000_000 });
    await events.close();
    expect((await readEvents(file))[0]?.seq).toBe(1);
  });
});

describe('rotation', () => {
  const names = async () =>
    (await readdir(temp.path)).filter((name) => name.startsWith('events.jsonl')).sort();

  it('moves the live file to .1 and .1 to .2 before a batch would pass maxBytes, keeping 3', async () => {
    const events = openEventLog({ path: file, logger: log.logger, maxBytes: 1_000 });
    const padding = 'p'.repeat(200);
    for (let n = 0; n < 40; n += 1) {
      events.record('tick', { n, padding });
      await events.flush();
    }
    await events.close();
    expect(await names()).toEqual(['events.jsonl', 'events.jsonl.1', 'events.jsonl.2']);
    const files = ['events.jsonl.2', 'events.jsonl.1', 'events.jsonl'];
    const seqs: number[] = [];
    for (const name of files) {
      const text = await readFile(path.join(temp.path, name), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1_000);
      seqs.push(
        ...(await readEvents(path.join(temp.path, name))).map((event) => Number(event.seq)),
      );
    }
    // The newest lines, in order and without a gap; the oldest were dropped with the old .2.
    expect(seqs).toEqual(
      Array.from({ length: seqs.length }, (_, index) => 41 - seqs.length + index),
    );
    expect(seqs.length).toBeLessThan(40);
    expect(log.events().filter((event) => event === 'events.rotated').length).toBeGreaterThan(3);
    // And the numbering goes on from the newest file after a restart.
    expect(await readLastSeq(file, log.logger)).toBe(40);
  });

  it('keeps appending (and warns once) when rotating fails', async () => {
    // Renaming .1 onto a folder that holds something fails (EISDIR), so no rotation can work.
    await writeFile(`${file}.1`, line(0));
    await mkdir(`${file}.2`);
    await writeFile(path.join(`${file}.2`, 'keep'), '');
    const events = openEventLog({ path: file, logger: log.logger, maxBytes: 200 });
    for (let n = 0; n < 5; n += 1) {
      events.record('tick', { n, padding: 'p'.repeat(100) });
      await events.flush();
    }
    await events.close();
    expect((await readEvents(file)).map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(log.events()).toEqual(['events.rotate_failed']);
  });

  it('rotateEventLog skips files that are not there', async () => {
    await writeFile(file, line(1));
    await rotateEventLog(file);
    expect(await names()).toEqual(['events.jsonl.1']);
  });
});
