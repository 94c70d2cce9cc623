import { describe, expect, it } from 'vitest';
import { createPermissionRegistry } from '../../../src/permissions/create-permission-registry.js';
import type { PermissionChange } from '../../../src/permissions/permission-types.js';
import { createMemoryEventLog } from '../../../src/state/memory-event-log.js';
import { captureLogger } from '../../helpers/capture-logger.js';

const dana = { surface: 'slack', name: '@dana' } as const;
const eve = { surface: 'cli', name: 'eve' } as const;
const secret = 'curl -H "Authorization: Bearer s3cr3t" https://x';

function setup() {
  const events = createMemoryEventLog();
  const timers: { ms: number; run: () => void; cancelled: boolean }[] = [];
  const changes: PermissionChange[] = [];
  let ids = 0;
  const registry = createPermissionRegistry({
    timeoutMs: 600_000,
    events,
    logger: captureLogger().logger,
    now: () => Date.parse('2026-12-01T10:00:00.000Z'),
    newId: () => `p-${String((ids += 1)).padStart(10, 'a')}`,
    schedule: (ms, run) => {
      const timer = { ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  });
  registry.onChange((change) => {
    changes.push(change);
  });
  const ask = (suggestions: unknown[] = []) => ({
    tool: 'Bash',
    toolInput: { command: secret },
    suggestions,
  });
  return { registry, events, timers, changes, ask };
}

describe('the permission registry', () => {
  it('opens a request with a summary, an expiry and canAlways only with suggestions', () => {
    const { registry, ask } = setup();
    const plain = registry.open('standing:sup', ask()).request;
    const offered = registry.open('standing:sup', ask([{ type: 'addRules' }])).request;
    expect(plain).toMatchObject({
      ref: 'standing:sup',
      tool: 'Bash',
      summary: `$ ${secret}`,
      requestedAt: '2026-12-01T10:00:00.000Z',
      expiresAt: '2026-12-01T10:10:00.000Z',
      canAlways: false,
    });
    expect(offered.canAlways).toBe(true);
    expect(registry.list().map((view) => Object.keys(view).sort())).toEqual([
      ['canAlways', 'expiresAt', 'id', 'ref', 'requestedAt', 'summary', 'tool'],
      ['canAlways', 'expiresAt', 'id', 'ref', 'requestedAt', 'summary', 'tool'],
    ]);
  });

  it('lets the first decision win; a later one hears who decided', async () => {
    const { registry, ask } = setup();
    const { request, outcome } = registry.open('standing:sup', ask());
    expect(registry.decide(request.id, 'deny', dana, '  use staging  ').kind).toBe('decided');
    const late = registry.decide(request.id, 'allow', eve);
    expect(late).toMatchObject({ kind: 'already', outcome: { verdict: 'deny', decider: dana } });
    expect(await outcome).toMatchObject({
      kind: 'decided',
      verdict: 'deny',
      reason: 'use staging',
    });
    expect(registry.list()).toEqual([]);
    expect(registry.expire(request.id, 'timeout')).toBe(false);
  });

  it('refuses allow-always without suggestions and leaves the request open', () => {
    const { registry, ask } = setup();
    const { request } = registry.open('standing:sup', ask());
    expect(registry.decide(request.id, 'allow-always', dana).kind).toBe('no-always');
    expect(registry.hasOpenRequest('standing:sup')).toBe(true);
  });

  it('knows no id it did not issue', () => {
    const { registry } = setup();
    expect(registry.decide('p-zzzzzzzzzz', 'allow', dana)).toEqual({ kind: 'unknown' });
    expect(registry.find('p-zzzzzzzzzz')).toBeUndefined();
  });

  it('expires after the timeout, and a decision after that is too late', async () => {
    const { registry, timers, ask } = setup();
    const { request, outcome } = registry.open('standing:sup', ask());
    expect(timers[0]?.ms).toBe(600_000);
    timers[0]?.run();
    expect(await outcome).toMatchObject({ kind: 'expired', reason: 'timeout' });
    expect(registry.decide(request.id, 'allow', dana).kind).toBe('already');
  });

  it('cancels the timer once decided', () => {
    const { registry, timers, ask } = setup();
    const { request } = registry.open('standing:sup', ask());
    registry.decide(request.id, 'allow', dana);
    expect(timers[0]?.cancelled).toBe(true);
  });

  it('answers hasOpenRequest per session and tells its listeners each change', async () => {
    const { registry, changes, ask } = setup();
    const first = registry.open('standing:a', ask());
    registry.open('standing:b', ask());
    expect(registry.hasOpenRequest('standing:a')).toBe(true);
    expect(registry.hasOpenRequest('standing:c')).toBe(false);
    registry.expireRef('standing:a', 'stopped');
    expect(await first.outcome).toMatchObject({ reason: 'stopped' });
    expect(registry.hasOpenRequest('standing:a')).toBe(false);
    expect(registry.openFor('standing:b')).toHaveLength(1);
    await registry.expireAll('restart');
    expect(registry.list()).toEqual([]);
    expect(changes.map((change) => change.kind)).toEqual([
      'requested',
      'requested',
      'settled',
      'settled',
    ]);
  });

  it('records permission.* events with id, ref, tool, decider and surface — never the input', () => {
    const { registry, events, ask } = setup();
    const a = registry.open('standing:sup', ask()).request;
    const b = registry.open('standing:sup', ask([{ type: 'addRules' }])).request;
    const c = registry.open('standing:sup', ask()).request;
    registry.decide(a.id, 'allow', dana);
    registry.decide(b.id, 'allow-always', dana);
    registry.decide(c.id, 'deny', eve, 'no');
    registry.expire(registry.open('standing:sup', ask()).request.id, 'terminal');
    const logged = events.events.map(({ ts: _ts, ...rest }) => rest);
    expect(logged.map((entry) => entry.event)).toEqual([
      'permission.requested',
      'permission.requested',
      'permission.requested',
      'permission.allowed',
      'permission.allowed',
      'permission.denied',
      'permission.requested',
      'permission.expired',
    ]);
    expect(logged[5]).toEqual({
      event: 'permission.denied',
      id: c.id,
      ref: 'standing:sup',
      tool: 'Bash',
      decider: 'eve',
      surface: 'cli',
    });
    expect(logged[7]).toMatchObject({ event: 'permission.expired', reason: 'terminal' });
    expect(JSON.stringify(events.events)).not.toContain('s3cr3t');
  });

  it('keeps running when a listener fails', async () => {
    const { registry, ask } = setup();
    registry.onChange(() => {
      throw new Error('slack is down');
    });
    const { request, outcome } = registry.open('standing:sup', ask());
    registry.decide(request.id, 'allow', dana);
    expect((await outcome).kind).toBe('decided');
  });
});
