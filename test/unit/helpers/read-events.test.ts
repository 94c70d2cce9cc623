import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEventLine, readEvents } from '../../helpers/read-events.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';

let temp: TempDir;
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.remove();
});

describe('readEvents', () => {
  it('returns no events for a missing log', async () => {
    expect(await readEvents(path.join(temp.path, 'events.jsonl'))).toEqual([]);
  });

  it('keeps well-formed lines in order and skips malformed ones', async () => {
    const file = path.join(temp.path, 'events.jsonl');
    const lines = [
      '{"ts":"2024-01-01T00:00:00.000Z","event":"a","n":1}',
      'not json',
      '{"ts":"2024-01-01T00:00:01.000Z","event":"b"}',
      '[1,2]',
      '{"event":"no-ts"}',
      '{"ts":1,"event":"numeric-ts"}',
      '',
      '{"ts":"2024-01-01T00:00:02.000Z","event":"c"',
    ];
    await writeFile(file, lines.join('\n'));
    const events = await readEvents(file);
    expect(events.map((event) => event.event)).toEqual(['a', 'b']);
    expect(events[0]?.n).toBe(1);
  });
});

describe('parseEventLine', () => {
  it.each([
    ['{"ts":"t","event":"e"}', true],
    ['  ', false],
    ['null', false],
    ['"text"', false],
    ['{"ts":"t"}', false],
  ])('%j → %s', (line, ok) => {
    expect(parseEventLine(line) !== undefined).toBe(ok);
  });
});
