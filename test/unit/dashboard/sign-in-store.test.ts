import { describe, expect, it } from 'vitest';
import {
  codeTtlMs,
  createSignInStore,
  sameSecret,
  sessionTtlMs,
} from '../../../src/dashboard/sign-in-store.js';

function clock() {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('createSignInStore', () => {
  it('takes a code once', () => {
    const store = createSignInStore();
    const { code } = store.issueCode();
    expect(store.redeemCode(code)).toBe(true);
    expect(store.redeemCode(code)).toBe(false);
  });

  it('refuses a code after 2 minutes, and an unknown one', () => {
    const time = clock();
    const store = createSignInStore({ now: time.now });
    const { code, expiresAt } = store.issueCode();
    expect(expiresAt).toBe(time.now() + codeTtlMs);
    time.advance(codeTtlMs);
    expect(store.redeemCode(code)).toBe(false);
    expect(store.redeemCode('made-up')).toBe(false);
  });

  it('knows a session for 12 hours, then forgets it', () => {
    const time = clock();
    const store = createSignInStore({ now: time.now });
    const session = store.openSession();
    expect(store.hasSession(session)).toBe(true);
    expect(store.hasSession(`${session}x`)).toBe(false);
    time.advance(sessionTtlMs - 1);
    expect(store.hasSession(session)).toBe(true);
    time.advance(1);
    expect(store.hasSession(session)).toBe(false);
  });

  it('makes codes and sessions that differ, of at least 128 bits', () => {
    const store = createSignInStore();
    const values = new Set([store.issueCode().code, store.issueCode().code, store.openSession()]);
    expect(values.size).toBe(3);
    for (const value of values) expect(value.length).toBeGreaterThanOrEqual(22);
  });
});

describe('sameSecret', () => {
  it.each([
    ['token', 'token', true],
    ['token', 'tokem', false],
    ['tok', 'token', false],
    ['', '', false],
    ['x', '', false],
  ])('%s vs %s', (presented, expected, same) => {
    expect(sameSecret(presented, expected)).toBe(same);
  });
});
