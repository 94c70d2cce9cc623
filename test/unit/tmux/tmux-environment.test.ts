import { describe, expect, it } from 'vitest';
import { secretVariables, tmuxEnvironment } from '../../../src/tmux/tmux-environment.js';

describe('tmuxEnvironment', () => {
  it('drops every credential and keeps everything else', () => {
    const env = Object.fromEntries([
      ...secretVariables.map((name) => [name, 'secret']),
      ['PATH', '/bin'],
      ['HOME', '/h'],
    ]);
    expect(tmuxEnvironment(env)).toEqual({ PATH: '/bin', HOME: '/h' });
    expect(env['GITHUB_TOKEN']).toBe('secret');
  });
});
