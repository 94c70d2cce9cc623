import { describe, expect, it } from 'vitest';
import { createChannelPacer } from '../../../src/slack/create-channel-pacer.js';

describe('createChannelPacer', () => {
  it('spaces posts to one channel and leaves other channels alone', async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const pacer = createChannelPacer({
      intervalMs: 1000,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    });
    const order: string[] = [];
    await Promise.all([
      pacer.run('C1', async () => order.push('a1')),
      pacer.run('C1', async () => order.push('a2')),
      pacer.run('C2', async () => order.push('b1')),
    ]);
    expect(order).toEqual(['a1', 'b1', 'a2']);
    expect(sleeps).toEqual([1000]);
  });
});
