import { describe, expect, it } from 'vitest';
import { createTerminalCache } from '../../../src/dashboard/terminal-cache.js';

describe('createTerminalCache', () => {
  it('captures once per refresh however many viewers ask, per ref', async () => {
    let at = 0;
    const captures: string[] = [];
    const cache = createTerminalCache({
      capture: async (ref) => {
        captures.push(ref);
        return `${ref}@${at}`;
      },
      maxAgeMs: 500,
      now: () => at,
    });
    const first = await Promise.all([cache.read('a'), cache.read('a'), cache.read('b')]);
    expect(first).toEqual(['a@0', 'a@0', 'b@0']);
    at = 499;
    expect(await cache.read('a')).toBe('a@0');
    at = 500;
    expect(await cache.read('a')).toBe('a@500');
    expect(captures).toEqual(['a', 'b', 'a']);
  });

  it('does not keep a failed capture', async () => {
    let fail = true;
    const cache = createTerminalCache({
      capture: async () => {
        if (fail) throw new Error('not running');
        return 'screen';
      },
      maxAgeMs: 10_000,
      now: () => 0,
    });
    await expect(cache.read('a')).rejects.toThrow('not running');
    fail = false;
    expect(await cache.read('a')).toBe('screen');
  });

  it('captures nothing while nobody asks', async () => {
    let captures = 0;
    createTerminalCache({
      capture: async () => {
        captures += 1;
        return '';
      },
      maxAgeMs: 1,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(captures).toBe(0);
  });
});
