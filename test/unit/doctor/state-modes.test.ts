import { describe, expect, it } from 'vitest';
import { checkStateModes } from '../../../src/doctor/state-modes.js';

describe('checkStateModes', () => {
  it.each([
    ['a root not made yet', { root: '/s', exists: false as const }, 'ok'],
    [
      'private folders and files',
      {
        root: '/s',
        exists: true as const,
        entries: [
          { path: '/s', kind: 'folder' as const, mode: 0o700 },
          { path: '/s/events.jsonl', kind: 'file' as const, mode: 0o600 },
          { path: '/s/x.json', kind: 'file' as const, mode: 0o400 },
        ],
      },
      'ok',
    ],
    [
      'a folder others may enter',
      {
        root: '/s',
        exists: true as const,
        entries: [{ path: '/s', kind: 'folder' as const, mode: 0o755 }],
      },
      'fail',
    ],
    [
      'a file the group may read',
      {
        root: '/s',
        exists: true as const,
        entries: [
          { path: '/s', kind: 'folder' as const, mode: 0o700 },
          { path: '/s/standing/a.json', kind: 'file' as const, mode: 0o640 },
        ],
      },
      'fail',
    ],
  ])('%s → %s', (_, facts, status) => {
    const check = checkStateModes(facts);
    expect(check.status).toBe(status);
    if (status === 'fail') expect(check.remedy).toContain('chmod -R go-rwx /s');
  });
});
