import { describe, expect, it } from 'vitest';
import {
  checkNodeVersion,
  checkTmuxVersion,
  checkClaudeVersion,
} from '../../../src/doctor/versions.js';
import {
  CLAUDE_NEWEST_TESTED,
  CLAUDE_OLDEST_TESTED,
  CLAUDE_TESTED_VERSIONS,
  compareVersions,
  parseClaudeVersion,
} from '../../../src/harness/claude-versions.js';

describe('checkNodeVersion', () => {
  it.each([
    ['20.19.0', '>=20.19', 'ok'],
    ['20.20.2', '>=20.19', 'ok'],
    ['v22.1.0', '>=20.19', 'ok'],
    ['20.18.3', '>=20.19', 'fail'],
    ['18.20.0', '>=20.19', 'fail'],
    ['20.19.0', '^20.19 || >=22', 'warn'],
  ] as const)('Node %s against %s → %s', (version, required, status) => {
    const check = checkNodeVersion({ version, required });
    expect(check.status).toBe(status);
    expect(check.id).toBe('node');
    if (status !== 'ok') expect(check.remedy).not.toBe('');
  });
});

describe('checkTmuxVersion', () => {
  it.each([
    [{ output: 'tmux 3.4\n' }, 'ok'],
    [{ output: 'tmux 3.5a' }, 'ok'],
    [{ output: 'tmux next-3.6' }, 'ok'],
    [{ output: 'tmux master' }, 'ok'],
    [{ output: 'tmux 3.3a' }, 'warn'],
    [{ output: 'tmux 2.9' }, 'warn'],
    [{ error: 'tmux is not on PATH' }, 'fail'],
  ] as const)('%j → %s', (facts, status) => {
    expect(checkTmuxVersion(facts).status).toBe(status);
  });

  it('below 3.4 names the dead-pane crash and that the-loop guards against it', () => {
    const check = checkTmuxVersion({ output: 'tmux 3.3a' });
    expect(check.message).toContain('crashes its whole server');
    expect(check.message).toContain('dead pane');
    expect(check.message).toContain('the-loop guards against it');
  });
});

describe('the Claude Code version line of doctor (docs/design.md §23)', () => {
  it('the tested range runs from 2.1.197 to 2.1.332, oldest first', () => {
    expect(CLAUDE_OLDEST_TESTED).toBe('2.1.197');
    expect(CLAUDE_NEWEST_TESTED).toBe('2.1.332');
    const sorted = [...CLAUDE_TESTED_VERSIONS].sort(compareVersions);
    expect(sorted).toEqual([...CLAUDE_TESTED_VERSIONS]);
    expect(compareVersions('2.1.40', '2.1.197')).toBeLessThan(0);
    expect(parseClaudeVersion('2.1.332 (Claude Code)\n')).toBe('2.1.332');
  });

  it.each([
    ['2.1.197 (Claude Code)', 'ok', 'Claude Code 2.1.197 (tested range 2.1.197–2.1.332)'],
    ['2.1.250 (Claude Code)', 'ok', 'Claude Code 2.1.250 (tested range 2.1.197–2.1.332)'],
    ['2.1.332 (Claude Code)', 'ok', 'Claude Code 2.1.332 (tested range 2.1.197–2.1.332)'],
    [
      '2.1.100 (Claude Code)',
      'warn',
      'Claude Code 2.1.100 is older than the tested range 2.1.197–2.1.332',
    ],
    [
      '2.2.0 (Claude Code)',
      'warn',
      'Claude Code 2.2.0 is newer than the tested range 2.1.197–2.1.332',
    ],
  ])('%s → %s', (output, status, message) => {
    const check = checkClaudeVersion({ harness: 'claude', output });
    expect(check.id).toBe('claude-version:claude');
    expect(check.status).toBe(status);
    expect(check.message).toContain(message);
  });

  it('warns, naming the range, when the version cannot be read', () => {
    const check = checkClaudeVersion({ harness: 'claude', error: 'exec format error' });
    expect(check.status).toBe('warn');
    expect(check.message).toContain('exec format error');
    expect(check.remedy).toContain('2.1.197–2.1.332');
  });
});
