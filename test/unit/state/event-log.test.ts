import { chmod, mkdir, readFile, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatEventLine, openEventLog } from '../../../src/state/event-log.js';
import { readEvents } from '../../helpers/read-events.js';
import {
  asUnprivileged,
  makeTempDir,
  modeOf,
  withUmask,
  type TempDir,
} from '../../helpers/fs-fixtures.js';
import { captureLogger } from '../../helpers/capture-logger.js';

let temp: TempDir;
let file: string;
let log: ReturnType<typeof captureLogger>;
const fixedClock = () => new Date('2024-05-06T07:08:09.010Z');

beforeEach(async () => {
  temp = await makeTempDir();
  file = path.join(temp.path, 'events.jsonl');
  log = captureLogger();
});

afterEach(async () => {
  await chmod(temp.path, 0o700);
  await temp.remove();
});

describe('formatEventLine', () => {
  it('puts ts and event first and ends with one newline', () => {
    const line = formatEventLine(fixedClock(), 'x.happened', { ref: 'r', text: 'secret words' });
    expect(line).toBe('{"ts":"2024-05-06T07:08:09.010Z","event":"x.happened","ref":"r"}\n');
  });

  it('keeps a multi-line value on one line', () => {
    const line = formatEventLine(fixedClock(), 'e', { reason: 'a\nb' });
    expect(line.split('\n')).toHaveLength(2);
  });

  it('still writes the event when a field cannot be serialised', () => {
    const hostile = {
      toJSON() {
        throw new Error('no');
      },
    };
    const line = formatEventLine(fixedClock(), 'e', { hostile: [hostile] });
    expect(JSON.parse(line)).toMatchObject({ event: 'e', fieldsDropped: true });
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(JSON.parse(formatEventLine(fixedClock(), 'g', { getter }))).toMatchObject({
      event: 'g',
      fieldsDropped: true,
    });
  });
});

describe('openEventLog', () => {
  it('appends one JSON line per record, 0600 whatever the umask', async () => {
    const events = openEventLog({ path: file, logger: log.logger, clock: fixedClock });
    await withUmask(0o277, async () => {
      events.record('standing.created', { name: 'sup' });
      events.record('delivery.delivered', {
        ref: 'standing:sup',
        text: 'never logged',
        token: 't',
      });
      await events.close();
    });
    expect(await readEvents(file)).toEqual([
      { ts: '2024-05-06T07:08:09.010Z', event: 'standing.created', seq: 1, name: 'sup' },
      { ts: '2024-05-06T07:08:09.010Z', event: 'delivery.delivered', seq: 2, ref: 'standing:sup' },
    ]);
    const raw = await readFile(file, 'utf8');
    expect(raw).not.toContain('never logged');
    expect(await modeOf(file)).toBe(0o600);
    expect(log.lines).toEqual([]);
  });

  it('appends to an existing log and narrows a widened one to 0600', async () => {
    await writeFile(file, '{"ts":"2020-01-01T00:00:00.000Z","event":"old"}\n', { mode: 0o644 });
    await chmod(file, 0o644);
    const events = openEventLog({ path: file, logger: log.logger });
    events.record('new');
    await events.close();
    expect((await readEvents(file)).map((event) => event.event)).toEqual(['old', 'new']);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('keeps 1,000 quick records in order', async () => {
    const events = openEventLog({ path: file, logger: log.logger });
    for (let n = 0; n < 1_000; n += 1) events.record('tick', { n });
    await events.close();
    const read = await readEvents(file);
    expect(read.map((event) => event.n)).toEqual(Array.from({ length: 1_000 }, (_, n) => n));
    expect(read.map((event) => event.seq)).toEqual(Array.from({ length: 1_000 }, (_, n) => n + 1));
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(1_001);
  });

  it('flush makes every line recorded so far visible without closing', async () => {
    const events = openEventLog({ path: file, logger: log.logger });
    events.record('queued');
    await events.flush();
    expect((await readEvents(file)).map((event) => event.event)).toEqual(['queued']);
    events.record('still-open');
    await events.flush();
    expect((await readEvents(file)).map((event) => event.event)).toEqual(['queued', 'still-open']);
    await events.close();
  });

  it('starts a new file when the log is deleted under it', async () => {
    const events = openEventLog({ path: file, logger: log.logger });
    events.record('before');
    await events.flush();
    await unlink(file);
    events.record('after');
    await events.close();
    expect((await readEvents(file)).map((event) => event.event)).toEqual(['after']);
    expect(await modeOf(file)).toBe(0o600);
    expect(log.lines).toEqual([]);
  });

  it('recreates its folder (0700) when that is deleted', async () => {
    const nested = path.join(temp.path, 'state', 'events.jsonl');
    const events = openEventLog({ path: nested, logger: log.logger });
    events.record('first');
    await events.flush();
    await rm(path.dirname(nested), { recursive: true });
    events.record('second');
    await events.close();
    expect((await readEvents(nested)).map((event) => event.event)).toEqual(['second']);
    expect(await modeOf(path.dirname(nested))).toBe(0o700);
  });

  it('never throws when the log cannot be written, warns once, and recovers', async () => {
    await mkdir(file); // a folder where the log should be: every append fails (even for root)
    const events = openEventLog({ path: file, logger: log.logger });
    expect(() => {
      events.record('lost-1');
      events.record('lost-2');
    }).not.toThrow();
    await events.flush();
    events.record('lost-3');
    await events.flush();
    expect(log.events()).toEqual(['events.write_failed']);

    await rmdir(file);
    events.record('back');
    await events.close();
    expect((await readEvents(file)).map((event) => event.event)).toEqual(['back']);
    expect(log.events()).toEqual(['events.write_failed', 'events.log_recovered']);
    expect(log.lines[1]?.lost).toBe(3);
  });

  it('never throws when its folder is a file', async () => {
    await writeFile(path.join(temp.path, 'plain'), '');
    const events = openEventLog({
      path: path.join(temp.path, 'plain', 'events.jsonl'),
      logger: log.logger,
    });
    expect(() => events.record('e')).not.toThrow();
    await events.close();
    expect(log.events()).toEqual(['events.write_failed']);
  });

  it('never throws when its folder is read-only', async () => {
    const readOnly = path.join(temp.path, 'ro');
    await mkdir(readOnly);
    await chmod(temp.path, 0o755);
    await chmod(readOnly, 0o555);
    const events = openEventLog({ path: path.join(readOnly, 'events.jsonl'), logger: log.logger });
    // root ignores folder modes, so the log runs as an unprivileged user for the duration.
    await asUnprivileged(async () => {
      expect(() => events.record('e')).not.toThrow();
      await events.close();
    });
    expect(log.events()).toEqual(['events.write_failed']);
    expect(log.lines[0]?.err).toMatchObject({ code: 'EACCES' });
  });

  it('never throws on a bad clock or after close', async () => {
    const broken = openEventLog({ path: file, logger: log.logger, clock: () => new Date(NaN) });
    expect(() => broken.record('e')).not.toThrow();
    await broken.close();
    expect(() => broken.record('late')).not.toThrow();
    expect(log.events()).toEqual(['events.record_failed', 'events.record_after_close']);
    expect(await readEvents(file)).toEqual([]);
  });
});
