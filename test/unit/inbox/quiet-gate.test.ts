import { describe, expect, it } from 'vitest';
import { createQuietGate } from '../../../src/inbox/create-quiet-gate.js';

describe('createQuietGate', () => {
  it('releases waiters once arrivals pause for quietMs', async () => {
    let now = 0;
    const gate = createQuietGate({ quietMs: 5, maxWaitMs: 1_000, now: () => now });
    gate.touch();
    let released = false;
    const waiting = gate.wait().then(() => {
      released = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(released).toBe(false);
    now = 4;
    gate.touch();
    now = 8;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(released).toBe(false);
    now = 9;
    await waiting;
    expect(released).toBe(true);
  });

  it('releases after maxWaitMs even while arrivals keep coming', async () => {
    let now = 0;
    const gate = createQuietGate({ quietMs: 5, maxWaitMs: 20, now: () => now });
    gate.touch();
    const waiting = gate.wait();
    const timer = setInterval(() => {
      now += 1;
      gate.touch();
    }, 1);
    await waiting;
    clearInterval(timer);
    expect(now).toBeGreaterThanOrEqual(20);
    expect(now).toBeLessThan(40);
  });
});
