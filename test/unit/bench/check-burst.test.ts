import { describe, expect, it } from 'vitest';
import { burstText, checkBurst, parseBurstText } from '../../../bench/check-burst.js';

const sent = [
  { session: 'a', seq: 0 },
  { session: 'b', seq: 0 },
  { session: 'a', seq: 1 },
  { session: 'b', seq: 1 },
];

describe('checkBurst', () => {
  it('passes when every message lands once, in order per session, sessions interleaved', () => {
    const recorded = ['burst b 0', 'burst a 0', 'burst a 1', 'burst b 1'];
    expect(checkBurst(sent, recorded)).toEqual({
      lost: 0,
      duplicates: 0,
      unexpected: 0,
      orderOk: true,
    });
  });

  it('counts what never landed, what landed twice and what was never sent', () => {
    const recorded = ['burst a 0', 'burst a 0', 'burst b 0', 'burst a 0burst a 1', 'hello'];
    expect(checkBurst(sent, recorded)).toEqual({
      lost: 2,
      duplicates: 1,
      unexpected: 2,
      orderOk: true,
    });
  });

  it('notices one session receiving its messages out of order', () => {
    const recorded = ['burst a 1', 'burst b 0', 'burst a 0', 'burst b 1'];
    expect(checkBurst(sent, recorded).orderOk).toBe(false);
  });
});

describe('burstText', () => {
  it('reads back what it wrote', () => {
    expect(parseBurstText(burstText({ session: 'burst-7', seq: 12 }))).toEqual({
      session: 'burst-7',
      seq: 12,
    });
    expect(parseBurstText('burst burst-7 12 extra')).toBeUndefined();
  });
});
