import { describe, expect, it } from 'vitest';
import { createCleanupStack } from '../../../bench/cleanup-stack.js';

describe('createCleanupStack', () => {
  it('undoes last-in first-out, goes on past a failure, and runs each task once', async () => {
    const stack = createCleanupStack();
    const done: string[] = [];
    stack.defer('tmux', () => done.push('tmux'));
    stack.defer('serve', () => {
      throw new Error('already gone');
    });
    stack.defer('folder', async () => done.push('folder'));
    expect(await stack.run()).toEqual(['serve: already gone']);
    expect(done).toEqual(['folder', 'tmux']);
    expect(await stack.run()).toEqual([]);
    expect(done).toEqual(['folder', 'tmux']);
  });
});
