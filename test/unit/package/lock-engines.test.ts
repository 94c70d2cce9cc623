import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * `semver` is not a dependency of ours: it is in node_modules through @slack/oauth's jsonwebtoken
 * and typescript-eslint. It ships no types, so the one function used is typed here.
 */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

interface LockPackage {
  readonly version?: string;
  readonly engines?: unknown;
}

const lock = JSON.parse(
  readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8'),
) as { packages: Record<string, LockPackage> };
const manifest = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
) as { engines: { node: string } };

/** The oldest Node the package promises to run on (`engines.node: ">=20.19"`). */
const oldestNode = '20.19.0';

function nodeRange(entry: LockPackage): string | undefined {
  const engines = entry.engines;
  if (typeof engines !== 'object' || engines === null || Array.isArray(engines)) return undefined;
  const node = (engines as Record<string, unknown>)['node'];
  return typeof node === 'string' ? node : undefined;
}

describe('package-lock.json on Node 20', () => {
  it('promises Node 20.19 itself', () => {
    expect(semver.satisfies(oldestNode, manifest.engines.node)).toBe(true);
  });

  it('holds no package whose engines.node refuses Node 20.19 (npm ci would warn EBADENGINE)', () => {
    const ranges = Object.entries(lock.packages).flatMap(([where, entry]) => {
      const range = nodeRange(entry);
      return where === '' || range === undefined ? [] : [{ where, range }];
    });
    // Hundreds of packages state an engine; an empty list would mean the lock was not read.
    expect(ranges.length).toBeGreaterThan(50);
    const refusing = ranges.filter(({ range }) => !semver.satisfies(oldestNode, range));
    expect(refusing).toEqual([]);
  });

  it('the range check itself refuses what needs a newer Node', () => {
    expect(semver.satisfies(oldestNode, '>=22')).toBe(false);
    expect(semver.satisfies(oldestNode, '^20.19.0 || ^22.12.0 || >=23')).toBe(true);
    expect(semver.satisfies(oldestNode, '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
  });
});
