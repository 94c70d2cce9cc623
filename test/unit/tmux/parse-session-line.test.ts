import { describe, expect, it } from 'vitest';
import { parseSessionLine } from '../../../src/tmux/parse-session-line.js';

describe('parseSessionLine', () => {
  it('reads a live session with an owner', () => {
    expect(parseSessionLine('sup\t0\t42\t\town-1')).toEqual({
      name: 'sup',
      state: 'live',
      owner: 'own-1',
      panePid: 42,
    });
  });
  it('reads a dead pane with its status and a session without owner', () => {
    expect(parseSessionLine('x\t1\t42\t3\t')).toEqual({
      name: 'x',
      state: 'dead',
      owner: '',
      panePid: 42,
      deadStatus: 3,
    });
  });
  it('ignores garbage', () => {
    expect(parseSessionLine('')).toBeUndefined();
    expect(parseSessionLine('a\tb')).toBeUndefined();
  });
});
