import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidName,
  parseStandingRef,
  parseWorkItemRef,
  sameWorkItem,
  standingRef,
  standingTarget,
  workItemRef,
  workItemSlug,
  workItemTarget,
  type WorkItemRef,
} from '../../../src/refs.js';
import { hostileText, trickyChar, validName } from './arbitraries.js';

/** docs/design.md §1 written independently: 1–40 of [a-z0-9-], no hyphen at either end, whole string. */
const referenceName = /^(?!-)[a-z0-9-]{1,40}(?<!-)$/;

const nearName = fc.oneof(
  validName,
  fc.string({ unit: fc.constantFrom('a', 'z', '0', '9', '-', 'A', '_', '.', ' '), maxLength: 45 }),
  fc.tuple(validName, trickyChar).map(([name, tail]) => `${name}${tail}`),
  fc.tuple(trickyChar, validName).map(([head, name]) => `${head}${name}`),
  fc.constantFrom('', '-', 'a-', '-a', 'a\n', 'a\r', 'a'.repeat(40), 'a'.repeat(41), 'ab\u0000'),
  hostileText,
);

/** Owner and repo text with the case and punctuation variations GitHub allows. */
const ownerText = fc
  .tuple(
    fc.constantFrom(...'aBcZ09'),
    fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', '0', '-'), maxLength: 8 }),
  )
  .map(([first, rest]) => `${first}${rest}`);
const repoText = fc
  .string({ unit: fc.constantFrom('a', 'A', 'b', '0', '-', '.', '_'), minLength: 1, maxLength: 8 })
  .filter((repo) => repo !== '.' && repo !== '..');
const hostText = fc.constantFrom(
  'github.com',
  'GitHub.com',
  'ghe.example.com',
  'GHE.example.com:8443',
);
const workItem: fc.Arbitrary<WorkItemRef> = fc.record({
  host: hostText.map((host) => host.toLowerCase()),
  owner: ownerText,
  repo: repoText,
  number: fc.integer({ min: 1, max: 99_999 }),
});

/** The ways the same work item can be written: ref, GHES ref, issue URL, pull URL. */
const writtenForms = (item: WorkItemRef): string[] => [
  workItemRef(item),
  `github:${item.host}/${item.owner}/${item.repo}#${item.number}`,
  `https://${item.host}/${item.owner}/${item.repo}/issues/${item.number}`,
  `https://${item.host}/${item.owner}/${item.repo}/pull/${item.number}`,
];

describe('the name grammar and the two ref parsers', () => {
  it('isValidName agrees with an independent reference pattern on every string', () => {
    fc.assert(
      fc.property(nearName, (value) => {
        expect(isValidName(value)).toBe(referenceName.test(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('isValidName refuses anything that is not a string', () => {
    fc.assert(
      fc.property(
        fc.anything().filter((value) => typeof value !== 'string'),
        (value) => {
          expect(isValidName(value)).toBe(false);
        },
      ),
    );
  });

  it('standing refs round-trip, and no string is accepted by both parsers', () => {
    fc.assert(
      fc.property(validName, (name) => {
        expect(parseStandingRef(standingRef(name))).toBe(name);
        expect(parseWorkItemRef(standingRef(name))).toBeUndefined();
        expect(standingTarget(name)).toBe(`loop-standing-${name}`);
      }),
    );
    fc.assert(
      fc.property(workItem, (item) => {
        for (const form of writtenForms(item)) {
          expect(parseStandingRef(form)).toBeUndefined();
          expect(sameWorkItem(parseWorkItemRef(form) ?? never(), item)).toBe(true);
        }
      }),
    );
    const mixed = fc.oneof(
      hostileText,
      validName.map(standingRef),
      workItem.map(workItemRef),
      fc
        .tuple(
          fc.constantFrom('standing:', 'github:', 'STANDING:', 'standing:github:'),
          hostileText,
        )
        .map(([prefix, rest]) => `${prefix}${rest}`),
    );
    fc.assert(
      fc.property(mixed, (ref) => {
        const both = parseStandingRef(ref) !== undefined && parseWorkItemRef(ref) !== undefined;
        expect(both).toBe(false);
        const name = parseStandingRef(ref);
        if (name !== undefined) expect(isValidName(name)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('workItemTarget is injective: different work items never share a tmux target or slug', () => {
    fc.assert(
      fc.property(workItem, workItem, (a, b) => {
        fc.pre(!sameWorkItem(a, b));
        expect(workItemTarget(a)).not.toBe(workItemTarget(b));
        expect(workItemSlug(a)).not.toBe(workItemSlug(b));
      }),
      { numRuns: 5000 },
    );
    // Near misses written out: the collisions a plain "map to -" would have.
    const pairs: Array<[string, string]> = [
      ['github:a-b/c#1', 'github:a/b-c#1'],
      ['github:a/b.c#1', 'github:a/b-c#1'],
      ['github:a/b_c#1', 'github:a/b-c#1'],
      ['github:a/b#12', 'github:a/b-1#2'],
      ['github:ghe.example.com/a/b#1', 'github:a/b#1'],
    ];
    for (const [left, right] of pairs) {
      expect(workItemTarget(parseWorkItemRef(left) ?? never())).not.toBe(
        workItemTarget(parseWorkItemRef(right) ?? never()),
      );
    }
  });

  it('workItemTarget gives every way of writing one work item the same target (refs compare without case)', () => {
    const recased = workItem.chain((item) =>
      fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).map(([host, owner, repo]) => ({
        item,
        variant: {
          ...item,
          host: host ? item.host.toUpperCase() : item.host,
          owner: owner ? item.owner.toUpperCase() : item.owner.toLowerCase(),
          repo: repo ? item.repo.toUpperCase() : item.repo.toLowerCase(),
        },
      })),
    );
    fc.assert(
      fc.property(recased, ({ item, variant }) => {
        expect(sameWorkItem(item, variant)).toBe(true);
        expect({ ref: workItemRef(variant), target: workItemTarget(variant) }).toEqual({
          ref: workItemRef(variant),
          target: workItemTarget(item),
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('workItemTarget is always a tmux-safe name', () => {
    fc.assert(
      fc.property(workItem, (item) => {
        expect(workItemTarget(item)).toMatch(/^loop-gh-[a-z0-9-]+$/);
      }),
    );
  });
});

function never(): never {
  throw new Error('expected the ref to parse');
}
