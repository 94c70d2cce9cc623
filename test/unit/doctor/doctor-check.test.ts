import { describe, expect, it } from 'vitest';
import {
  type DoctorCheck,
  doctorReport,
  formatDoctorLines,
} from '../../../src/doctor/doctor-check.js';

describe('the report', () => {
  const checks: DoctorCheck[] = [
    { id: 'node', status: 'ok', message: 'Node 20.19.0', remedy: '' },
    { id: 'tmux', status: 'warn', message: 'tmux 3.3a', remedy: 'upgrade' },
    { id: 'harness:codex', status: 'fail', message: 'codex is\nmissing', remedy: 'install it' },
  ];

  it('prints `status  id  message — remedy`, one line per check', () => {
    expect(formatDoctorLines(checks).split('\n')).toEqual([
      'ok  node  Node 20.19.0',
      'warn  tmux  tmux 3.3a — upgrade',
      'fail  harness:codex  codex is missing — install it',
    ]);
  });

  it('is ok unless a check fails', () => {
    expect(doctorReport(checks).ok).toBe(false);
    expect(doctorReport(checks.slice(0, 2)).ok).toBe(true);
  });
});
