import { describe, expect, it } from 'vitest';
import { isPathInside } from '../../../src/standing/start-plan.js';
import { resolveDefinitions } from '../../../src/standing/resolve-definitions.js';
import {
  toStandingView,
  isStandingRecord,
  type StandingDefinition,
  type StandingRecord,
} from '../../../src/standing/standing-types.js';

const definition = (name: string, extra: Partial<StandingDefinition> = {}): StandingDefinition => ({
  name,
  description: '',
  harness: 'shell',
  args: [],
  cwd: '/w',
  autoStart: true,
  slack: { channel: '' },
  ...extra,
});

const record = (name: string, extra: Partial<StandingRecord> = {}): StandingRecord => ({
  version: 1,
  name,
  source: 'created',
  definition: definition(name),
  status: 'running',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('isPathInside', () => {
  it.each([
    ['/a/b', '/a', true],
    ['/a', '/a', true],
    ['/ab', '/a', false],
    ['/a/../b', '/a', false],
    ['/', '/a', false],
    ['/a/b/c', '/a/b', true],
  ])('%s inside %s → %s', (candidate, root, expected) => {
    expect(isPathInside(candidate, root)).toBe(expected);
  });
});

describe('resolveDefinitions', () => {
  it('takes declared sessions from the config and created ones from records, sorted', () => {
    const declaredRecord = record('alpha', {
      source: 'declared',
      definition: definition('alpha', { cwd: '/old' }),
    });
    const result = resolveDefinitions(
      [definition('alpha', { cwd: '/new' })],
      [record('zeta'), declaredRecord],
    );
    expect(result.map((entry) => [entry.definition.name, entry.source, entry.configKey])).toEqual([
      ['alpha', 'declared', 'standing.sessions[0]'],
      ['zeta', 'created', undefined],
    ]);
    expect(result[0]?.definition.cwd).toBe('/new');
    expect(result[0]?.record).toBe(declaredRecord);
  });

  it('keeps a record whose declaration left the config, without a config key', () => {
    const [orphan] = resolveDefinitions([], [record('gone', { source: 'declared' })]);
    expect(orphan?.source).toBe('declared');
    expect(orphan?.configKey).toBeUndefined();
  });
});

describe('toStandingView', () => {
  it('is running only when the record says so and tmux agrees, and never shows the token', () => {
    const running = record('a', { sessionToken: 'secret', conversationId: 'c1' });
    expect(
      toStandingView(running.definition, 'created', running, { state: 'live' }, 'C1'),
    ).toMatchObject({
      name: 'a',
      ref: 'standing:a',
      status: 'running',
      tmux: 'live',
      conversationId: 'c1',
      slack: { channel: 'C1' },
    });
    expect(
      toStandingView(running.definition, 'created', running, { state: 'absent' }, '').status,
    ).toBe('stopped');
    expect(
      JSON.stringify(toStandingView(running.definition, 'created', running, { state: 'live' }, '')),
    ).not.toContain('secret');
  });

  it('shows no Slack channel for slack: false or when none is configured', () => {
    const quiet = definition('q', { slack: false });
    expect(
      toStandingView(quiet, 'declared', undefined, { state: 'absent' }, 'C1').slack,
    ).toBeUndefined();
    expect(
      toStandingView(definition('q'), 'declared', undefined, { state: 'absent' }, '').slack,
    ).toBeUndefined();
  });
});

describe('isStandingRecord', () => {
  it('accepts a whole record and rejects damaged ones', () => {
    expect(isStandingRecord(record('a'))).toBe(true);
    expect(isStandingRecord({ ...record('a'), version: 2 })).toBe(false);
    expect(isStandingRecord({ ...record('a'), name: 'A' })).toBe(false);
    expect(isStandingRecord({ ...record('a'), definition: definition('b') })).toBe(false);
    expect(isStandingRecord({ ...record('a'), status: 'maybe' })).toBe(false);
    expect(isStandingRecord(null)).toBe(false);
  });
});
