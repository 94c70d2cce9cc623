import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import {
  checkFleet,
  type FleetFacts,
  gatherFleetFacts,
  withoutUserInfo,
} from '../../../src/doctor/fleet.js';

describe('checkFleet', () => {
  it.each([
    [{ kind: 'off' }, 'ok', /^off: this instance runs alone/],
    [
      { kind: 'reachable', nats: 'nats://h:4222', instances: 3, bucket: true },
      'ok',
      /^ok \(3 instances\): NATS at nats:\/\/h:4222/,
    ],
    [
      { kind: 'reachable', nats: 'nats://h:4222', instances: 1, bucket: true },
      'ok',
      /^ok \(1 instance\)/,
    ],
    [
      { kind: 'reachable', nats: 'nats://h:4222', instances: 0, bucket: false },
      'ok',
      /^ok \(0 instances\).*no instance has joined yet/,
    ],
    [
      { kind: 'unreachable', nats: 'nats://h:4222', error: 'CONNECTION_REFUSED' },
      'fail',
      /^down: cannot reach NATS at nats:\/\/h:4222: CONNECTION_REFUSED/,
    ],
  ] as const)('%j → %s', (facts, status, message) => {
    const check = checkFleet(facts as FleetFacts);
    expect(check.id).toBe('fleet');
    expect(check.status).toBe(status);
    expect(check.message).toMatch(message);
    if (status === 'fail') expect(check.remedy).toMatch(/nats-server.*fleet\.nats/);
    else expect(check.remedy).toBe('');
  });
});

describe('gatherFleetFacts', () => {
  it('without a fleet block it is off, and connects to nothing', async () => {
    const config = await loadConfig('/dev/null');
    expect(config.fleet).toBeUndefined();
    expect(await gatherFleetFacts(config, {})).toEqual({ kind: 'off' });
  });

  it('never shows a password written into fleet.nats', () => {
    expect(withoutUserInfo('nats://me:s3cret@a:4222,nats://b:4222')).toBe(
      'nats://***@a:4222,nats://b:4222',
    );
  });
});

/** Every module `from` loads at import time: static, non-type imports, followed through src/. */
async function staticImports(from: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(from)) return seen;
  seen.add(from);
  const text = await readFile(from, 'utf8');
  for (const [, spec] of text.matchAll(/^import (?!type )[^;]*?from '([^']+)';/gms)) {
    if (spec === undefined) continue;
    if (!spec.startsWith('.')) seen.add(spec);
    else await staticImports(path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('doctor without a fleet', () => {
  it('does not load NATS at import time: only a fleet block imports it (docs/design.md §21)', async () => {
    const loaded = [...(await staticImports(path.resolve('src/doctor/run-doctor.ts')))];
    expect(loaded.some((file) => file.endsWith(path.join('doctor', 'slack.ts')))).toBe(true);
    expect(loaded.filter((spec) => spec.startsWith('@nats-io'))).toEqual([]);
    expect(loaded.filter((file) => file.includes(path.join('src', 'fleet')))).toEqual([]);
  });
});
