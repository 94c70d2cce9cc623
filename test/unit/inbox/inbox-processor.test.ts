import { describe, expect, it } from 'vitest';
import { createInboxProcessor } from '../../../src/inbox/create-inbox-processor.js';
import { silentLogger } from '../../../src/log/create-logger.js';

const entry = (key: string, lane: string) => ({ key, value: { lane } });

describe('inbox processor', () => {
  it('keeps one lane in order, lets the next go on release, and never runs an entry twice', async () => {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const processor = createInboxProcessor<{ lane: string }>({
      laneOf: (value) => value.lane,
      handle: (item, release) =>
        new Promise<void>((resolve) => {
          started.push(item.key);
          finish.set(item.key, resolve);
          if (item.key === 'a1') release();
        }),
      logger: silentLogger(),
    });
    processor.submit(entry('a1', 'a'));
    processor.submit(entry('a2', 'a'));
    processor.submit(entry('a3', 'a'));
    processor.submit(entry('b1', 'b'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // a1 released its lane while still running; a2 did not, so a3 waits.
    expect(started).toEqual(['a1', 'b1', 'a2']);
    processor.submit(entry('a1', 'a'));
    finish.get('a2')?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3']);
    for (const done of finish.values()) done();
    await processor.idle();
    expect(started.filter((key) => key === 'a1')).toHaveLength(1);
  });
});
