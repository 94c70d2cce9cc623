import { describe, expect, it } from 'vitest';
import { admitMessage, createMessageLimiter } from '../../../src/agents/message-window.js';

describe('admitMessage: a sliding 60 s window', () => {
  it.each([
    {
      name: 'the first message',
      sent: [],
      now: 1000,
      limit: 2,
      allowed: true,
      kept: [1000],
      retry: 0,
    },
    {
      name: 'under the limit',
      sent: [1000],
      now: 2000,
      limit: 2,
      allowed: true,
      kept: [1000, 2000],
      retry: 0,
    },
    {
      name: 'at the limit',
      sent: [1000, 2000],
      now: 3000,
      limit: 2,
      allowed: false,
      kept: [1000, 2000],
      retry: 58_000,
    },
    {
      name: 'a send exactly 60 s old has left the window',
      sent: [1000, 2000],
      now: 61_000,
      limit: 2,
      allowed: true,
      kept: [2000, 61_000],
      retry: 0,
    },
    {
      name: 'one ms before that it still counts',
      sent: [1000, 2000],
      now: 60_999,
      limit: 2,
      allowed: false,
      kept: [1000, 2000],
      retry: 1,
    },
    {
      name: 'sliding, not a fixed minute: 20 in the last second of one minute block the first of the next',
      sent: Array.from({ length: 20 }, (_, i) => 59_000 + i),
      now: 60_500,
      limit: 20,
      allowed: false,
      kept: Array.from({ length: 20 }, (_, i) => 59_000 + i),
      retry: 58_500,
    },
    {
      name: 'old sends are dropped',
      sent: [1, 2, 3],
      now: 100_000,
      limit: 1,
      allowed: true,
      kept: [100_000],
      retry: 0,
    },
    {
      name: 'retry names when enough old sends leave for one more',
      sent: [1000, 5000, 9000],
      now: 10_000,
      limit: 2,
      allowed: false,
      kept: [1000, 5000, 9000],
      retry: 55_000,
    },
  ])('$name', ({ sent, now, limit, allowed, kept, retry }) => {
    expect(admitMessage(sent, now, limit)).toEqual({ allowed, sent: kept, retryAfterMs: retry });
  });
});

describe('createMessageLimiter', () => {
  it('keeps one window per sender, and a released place does not count', () => {
    let now = 0;
    const limiter = createMessageLimiter({ limit: () => 2, now: () => now });
    const first = limiter.reserve('standing:a');
    expect(first.allowed).toBe(true);
    now = 10;
    const refused = limiter.reserve('standing:a');
    if (!refused.allowed) throw new Error('expected a place');
    refused.release();
    refused.release(); // twice is once
    now = 20;
    expect(limiter.reserve('standing:a').allowed).toBe(true);
    now = 30;
    expect(limiter.reserve('standing:a')).toEqual({ allowed: false, retryAfterMs: 59_970 });
    // Another sender has a window of its own.
    expect(limiter.reserve('standing:b').allowed).toBe(true);
    now = 60_000;
    expect(limiter.reserve('standing:a').allowed).toBe(true);
  });

  it('reads the limit at each message, so a changed config applies to the next one', () => {
    let limit = 1;
    const limiter = createMessageLimiter({ limit: () => limit, now: () => 5 });
    expect(limiter.reserve('s').allowed).toBe(true);
    expect(limiter.reserve('s').allowed).toBe(false);
    limit = 3;
    expect(limiter.reserve('s').allowed).toBe(true);
  });
});
