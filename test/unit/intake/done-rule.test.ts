import { describe, expect, it } from 'vitest';
import { finishOnce, isDoneAt, type EntryMoment } from '../../../src/intake/done-rule.js';

describe('isDoneAt: when an inbox entry is done, for every surface', () => {
  it.each<[EntryMoment, boolean, string]>([
    ['recorded', false, 'nothing accepted is lost: kept until it is handled'],
    ['handed-on', false, 'a crash while it waits in its lane hands it on again'],
    ['duplicate', true, 'its twin or first copy is the one handled'],
    ['typed', true, 'the Enter is pressed: a crash must not type it a second time'],
    ['handled', true, 'its handling ended (or failed), before the person is told'],
  ])('%s → %s (%s)', (moment, done) => {
    expect(isDoneAt(moment)).toBe(done);
  });
});

describe('finishOnce', () => {
  it('marks the entry done once, however often it is called', async () => {
    const marked: string[] = [];
    const finish = finishOnce(
      {
        done: async (key) => {
          marked.push(key);
        },
      },
      'k1',
    );
    const first = finish();
    expect(finish()).toBe(first);
    await first;
    await finish();
    expect(marked).toEqual(['k1']);
  });
});
