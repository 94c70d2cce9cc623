import { describe, expect, it } from 'vitest';
import { secretVariables, tmuxEnvironment } from '../../../src/tmux/tmux-environment.js';

describe('tmuxEnvironment', () => {
  it('drops every credential and keeps everything else', () => {
    const env = Object.fromEntries([
      ...secretVariables.map((name) => [name, 'secret']),
      ['PATH', '/bin'],
      ['HOME', '/h'],
      ['SLACK_EXTRA_TOKEN', 'secret'],
      ['npm_lifecycle_event', 'start'],
      ['SLACK_API_URL', 'http://slack'],
    ]);
    // A server serve starts keeps what it started with for every later session: no npm_* either.
    expect(tmuxEnvironment(env)).toEqual({
      PATH: '/bin',
      HOME: '/h',
      SLACK_API_URL: 'http://slack',
    });
    expect(env['GITHUB_TOKEN']).toBe('secret');
  });
});
