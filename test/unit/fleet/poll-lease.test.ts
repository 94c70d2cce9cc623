import { describe, expect, it } from 'vitest';
import { decideLease, type LeaseSeen } from '../../../src/fleet/poll-lease.js';

describe('decideLease: one instance per repository polls (docs/design.md §21)', () => {
  const cases: Array<[string, LeaseSeen | undefined, ReturnType<typeof decideLease>]> = [
    ['nobody holds it: create it', undefined, { kind: 'create' }],
    [
      'held by me: renew it',
      { holder: 'a', revision: 4, ageMs: 12_000 },
      { kind: 'update', revision: 4, fresh: false },
    ],
    [
      'held by me even past the TTL: still mine, renewed',
      { holder: 'a', revision: 4, ageMs: 45_000 },
      { kind: 'update', revision: 4, fresh: false },
    ],
    [
      'held by another, live: leave it',
      { holder: 'b', revision: 7, ageMs: 29_000 },
      { kind: 'elsewhere', holder: 'b' },
    ],
    [
      'held by another that lapsed: take it over',
      { holder: 'b', revision: 7, ageMs: 31_000 },
      { kind: 'update', revision: 7, fresh: true },
    ],
    [
      'released (a delete marker): take it',
      { holder: undefined, revision: 9, ageMs: 0 },
      { kind: 'update', revision: 9, fresh: true },
    ],
  ];
  it.each(cases)('%s', (_what, seen, step) => {
    expect(decideLease(seen, 'a', 30_000)).toEqual(step);
  });
});
