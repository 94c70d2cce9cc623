import { describe, expect, it } from 'vitest';
import { buildInitConfig, initNextSteps } from '../../../src/init/build-init-config.js';
import { parseGithubRemote } from '../../../src/init/parse-github-remote.js';

describe('parseGithubRemote', () => {
  it.each([
    ['https://github.com/octo/repo.git', 'github.com', 'octo', 'repo'],
    ['https://github.com/octo/repo', 'github.com', 'octo', 'repo'],
    ['https://github.com/octo/repo/', 'github.com', 'octo', 'repo'],
    ['https://x-access-token:ghs_secret@github.com/octo/repo.git', 'github.com', 'octo', 'repo'],
    ['git@github.com:octo/repo.git', 'github.com', 'octo', 'repo'],
    ['git@github.com:octo/my.repo', 'github.com', 'octo', 'my.repo'],
    ['ssh://git@github.com/octo/repo.git', 'github.com', 'octo', 'repo'],
    ['ssh://git@GitHub.example.com:2222/team/tool.git', 'github.example.com', 'team', 'tool'],
    ['  git@github.com:octo/repo.git\n', 'github.com', 'octo', 'repo'],
  ])('%s → %s %s/%s', (url, host, owner, repo) => {
    expect(parseGithubRemote(url)).toEqual({ host, owner, repo });
  });

  it.each([
    '/srv/git/repo.git',
    '../repo',
    'https://gitlab.com/group/sub/repo.git',
    'git@github.com:-bad/repo.git',
    'https://github.com/octo',
    'https://github.com/octo/..',
    '',
  ])('%j → undefined', (url) => {
    expect(parseGithubRemote(url)).toBeUndefined();
  });
});

describe('buildInitConfig', () => {
  it('names the repository with the repository root as its checkout', () => {
    const text = buildInitConfig({
      remote: { host: 'github.com', owner: 'octo', repo: 'repo' },
      harness: 'claude',
    });
    expect(text).toContain('- repo: "octo/repo"');
    expect(text).toContain('path: ".."');
    expect(text).toContain('harness: claude');
  });

  it('without a remote, leaves repos empty and says why', () => {
    const text = buildInitConfig({ harness: 'shell' });
    expect(text).toContain('repos: [] # no GitHub origin remote');
    expect(text).toContain('harness: shell');
  });

  it('gives three next steps; an Enterprise host adds GITHUB_API_URL', () => {
    expect(initNextSteps({ harness: 'shell' })).toHaveLength(3);
    const steps = initNextSteps({
      harness: 'shell',
      remote: { host: 'git.corp.example', owner: 'team', repo: 'tool' },
    }).join('\n');
    expect(steps).toContain('GITHUB_API_URL=https://git.corp.example/api/v3');
    expect(steps).toContain('the-loop doctor');
  });
});
