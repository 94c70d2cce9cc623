import { describe, expect, it } from 'vitest';
import { checkGithub, type GithubFacts } from '../../../src/doctor/github.js';

import { answered, down, statusOf } from '../../helpers/doctor-checks.js';

const githubBase: GithubFacts = {
  apiUrl: 'https://api.github.com',
  hasToken: true,
  user: answered(200, { login: 'loop-bot' }),
  repos: [{ repo: 'octo/repo', probe: answered(200, { full_name: 'octo/repo' }) }],
  webhook: {
    state: 'signed',
    secretLength: 64,
    url: 'http://127.0.0.1:3000/github/webhook',
    poll: false,
    pollSeconds: 30,
  },
};

describe('checkGithub', () => {
  const webhook = (change: Partial<GithubFacts['webhook']>) => ({
    webhook: { ...githubBase.webhook, ...change },
  });
  it.each([
    ['everything right', {}, ['ok github-token', 'ok github-repo:octo/repo', 'ok github-webhook']],
    ['no token', { hasToken: false, user: undefined }, ['warn github']],
    [
      'a refused token',
      { user: answered(401, { message: 'Bad credentials' }) },
      ['fail github-token'],
    ],
    ['GitHub unreachable', { user: down }, ['fail github-token']],
    [
      'an app installation token (GET /user is for users)',
      { user: answered(403, { message: 'Resource not accessible by integration' }) },
      ['warn github-token', 'ok github-repo:octo/repo', 'ok github-webhook'],
    ],
    [
      'a token GitHub forbids',
      { user: answered(403, { message: 'Forbidden' }) },
      ['fail github-token'],
    ],
    [
      'a repo the token cannot see',
      { repos: [{ repo: 'octo/secret', probe: answered(404, { message: 'Not Found' }) }] },
      ['ok github-token', 'fail github-repo:octo/secret', 'ok github-webhook'],
    ],
    ['no repos', { repos: [] }, ['ok github-token', 'warn github-repos', 'ok github-webhook']],
    [
      'a short webhook secret',
      webhook({ secretLength: 6 }),
      ['ok github-token', 'ok github-repo:octo/repo', 'warn github-webhook'],
    ],
    [
      'an unsigned webhook',
      webhook({ state: 'unsigned' }),
      ['ok github-token', 'ok github-repo:octo/repo', 'warn github-webhook'],
    ],
    [
      'no webhook, poller on',
      webhook({ state: 'off', poll: true }),
      ['ok github-token', 'ok github-repo:octo/repo', 'ok github-webhook'],
    ],
    [
      'no webhook, no poller',
      webhook({ state: 'off' }),
      ['ok github-token', 'ok github-repo:octo/repo', 'warn github-webhook'],
    ],
  ])('%s', (_, change, expected) => {
    expect(statusOf(checkGithub({ ...githubBase, ...change }))).toEqual(expected);
  });
});
