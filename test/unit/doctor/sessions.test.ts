import { describe, expect, it } from 'vitest';
import { checkHarnesses, checkSessionCwds } from '../../../src/doctor/sessions.js';

import { statusOf } from '../../helpers/doctor-checks.js';

describe('checkHarnesses', () => {
  it('ok when found; warn when missing and unused; fail when missing and used', () => {
    const checks = checkHarnesses([
      { name: 'shell', command: 'bash', foundAt: '/usr/bin/bash', usedBy: ['defaults.harness'] },
      { name: 'claude', command: 'claude', usedBy: [] },
      { name: 'codex', command: 'codex', usedBy: ['standing session review'] },
      { name: 'aider', command: 'aider', usedBy: ['defaults.harness'] },
    ]);
    expect(statusOf(checks)).toEqual([
      'ok harness:shell',
      'warn harness:claude',
      'fail harness:codex',
      'fail harness:aider',
    ]);
    expect(checks[2]?.message).toContain('standing session review');
    expect(checks[2]?.remedy).toContain('harnesses.codex.command');
  });
});

describe('checkSessionCwds', () => {
  it('one line per session; a missing or non-folder cwd fails with a remedy for its source', () => {
    const checks = checkSessionCwds([
      { name: 'demo', source: 'declared', cwd: '/repo', kind: 'directory' },
      { name: 'gone', source: 'declared', cwd: '/nowhere', kind: 'missing' },
      { name: 'made', source: 'created', cwd: '/etc/hosts', kind: 'not-directory' },
    ]);
    expect(statusOf(checks)).toEqual(['ok cwd:demo', 'fail cwd:gone', 'fail cwd:made']);
    expect(checks[1]?.remedy).toContain('in the config');
    expect(checks[2]?.message).toContain('is not a folder');
    expect(checks[2]?.remedy).toContain('the-loop standing delete made');
  });

  it('says so when there are none', () => {
    expect(statusOf(checkSessionCwds([]))).toEqual(['ok cwd']);
  });
});
