import { describe, expect, it } from 'vitest';
import { classifyTmuxFailure } from '../../../src/tmux/classify-tmux-failure.js';

describe('classifyTmuxFailure', () => {
  it.each([
    ["can't find session: sup", 'absent'],
    ['no such session: =sup', 'absent'],
    ['no server running on /tmp/tmux-0/x', 'absent'],
    ['no current target', 'absent'],
    ['error connecting to /tmp/tmux-0/x (No such file or directory)', 'absent'],
    ['error connecting to /tmp/tmux-0/x (Permission denied)', 'unknown'],
    ['server exited unexpectedly', 'unknown'],
    ['', 'unknown'],
  ])('%j → %s', (stderr, expected) => {
    expect(classifyTmuxFailure(stderr)).toBe(expected);
  });
});
