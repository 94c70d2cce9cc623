import { describe, expect, it } from 'vitest';
import { claudeHookAnswer, hookDecision } from '../../../src/hooks/hook-answer.js';
import { describeOutcome } from '../../../src/permissions/decisions.js';
import type {
  PermissionOutcome,
  PermissionRequest,
} from '../../../src/permissions/permission-types.js';

describe('claudeHookAnswer', () => {
  it.each<[string, unknown, Record<string, unknown> | undefined]>([
    ["the-loop's own bookkeeping is no answer", { accepted: true, confirmed: false }, undefined],
    ['nothing', undefined, undefined],
    [
      "Claude Code's fields pass, the rest does not",
      {
        accepted: true,
        hookSpecificOutput: { hookEventName: 'PermissionRequest' },
        continue: true,
      },
      { hookSpecificOutput: { hookEventName: 'PermissionRequest' }, continue: true },
    ],
    ['an array is no answer', [1], undefined],
  ])('%s', (_title, result, expected) => {
    expect(claudeHookAnswer(result)).toEqual(expected);
  });
});

const request = (suggestions: unknown[] = []): PermissionRequest => ({
  id: 'p-abcdefghij',
  ref: 'standing:sup',
  tool: 'Bash',
  summary: '$ ls',
  requestedAt: '2026-12-01T10:00:00.000Z',
  expiresAt: '2026-12-01T10:10:00.000Z',
  canAlways: suggestions.length > 0,
  suggestions,
  alwaysChanges: [],
  alwaysApply: suggestions,
});
const dana = { surface: 'slack', name: '@dana' } as const;
const at = '2026-12-01T10:02:00.000Z';

describe('hookDecision and describeOutcome', () => {
  const rule = { type: 'addRules', rules: [{ toolName: 'Bash' }], destination: 'localSettings' };
  it.each<[PermissionRequest, PermissionOutcome, Record<string, unknown>, string]>([
    [
      request(),
      { kind: 'decided', verdict: 'allow', decider: dana, at },
      { behavior: 'allow' },
      'allowed by @dana from Slack at 10:02 UTC',
    ],
    [
      request([rule]),
      { kind: 'decided', verdict: 'allow-always', decider: dana, at },
      { behavior: 'allow', updatedPermissions: [rule] },
      'allowed always by @dana from Slack at 10:02 UTC',
    ],
    [
      request(),
      { kind: 'decided', verdict: 'deny', decider: dana, at },
      { behavior: 'deny', message: 'Denied by @dana from Slack.' },
      'denied by @dana from Slack at 10:02 UTC',
    ],
    [
      request(),
      {
        kind: 'decided',
        verdict: 'deny',
        decider: { surface: 'github', name: '@octocat' },
        reason: 'use the staging db',
        at,
      },
      { behavior: 'deny', message: 'Denied by @octocat from GitHub: use the staging db' },
      'denied by @octocat from GitHub at 10:02 UTC: use the staging db',
    ],
  ])('%#: decision %j', (req, outcome, decision, words) => {
    expect(hookDecision(req, outcome)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision },
    });
    expect(describeOutcome(outcome)).toBe(words);
  });

  it.each([
    ['timeout', 'expired — answer in the terminal (10:02 UTC)'],
    ['restart', 'expired: the-loop restarted — answer in the terminal (10:02 UTC)'],
    ['terminal', 'answered in the terminal (10:02 UTC)'],
    ['stopped', 'ended: the session stopped (10:02 UTC)'],
  ] as const)('expired (%s) answers nothing, so Claude keeps its dialog', (reason, words) => {
    const outcome = { kind: 'expired', reason, at } as const;
    expect(hookDecision(request(), outcome)).toEqual({});
    expect(describeOutcome(outcome)).toBe(words);
  });
});
