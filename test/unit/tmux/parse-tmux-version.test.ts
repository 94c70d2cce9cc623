import { describe, expect, it } from 'vitest';
import {
  parseTmuxVersion,
  supportsControlClient,
  supportsSessionEnv,
} from '../../../src/tmux/parse-tmux-version.js';

describe('tmux version', () => {
  it.each([
    ['tmux 3.3a', 3, 3, true],
    ['tmux 3.2', 3, 2, true],
    ['tmux 3.1c', 3, 1, false],
    ['tmux 4.0', 4, 0, true],
    ['tmux 2.9', 2, 9, false],
    ['tmux next-3.6', 3, 6, true],
    ['tmux master', 99, 0, true],
  ])('%s', (raw, major, minor, newEnough) => {
    const version = parseTmuxVersion(raw);
    expect([version.major, version.minor]).toEqual([major, minor]);
    expect(supportsSessionEnv(version)).toBe(newEnough);
    expect(supportsControlClient(version)).toBe(newEnough);
  });
});
