import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGithubActions } from '../../../src/github/create-github-actions.js';
import { createGithubPoster } from '../../../src/github/create-github-poster.js';
import { carriesMarker, hiddenMarker } from '../../../src/github/github-comment.js';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import { githubConfig } from '../../helpers/github-config.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { surfaceOctokit } from './surface-octokit.js';

describe('createGithubPoster with the fake GitHub and a real Octokit', () => {
  let github: FakeGithub;

  beforeEach(async () => {
    github = await startFakeGithub();
    github.addIssue('octo', 'repo', { number: 12, title: 'Fix the build' });
    github.addIssue('octo', 'repo', { number: 40, title: 'Faster parser', isPullRequest: true });
  });

  afterEach(async () => {
    await github.stop();
  });

  const poster = (instance = 'laptop-b') =>
    createGithubPoster({
      config: githubConfig({ instance: { name: instance, scope: { mode: 'open' } } }),
      actions: createGithubActions({
        octokit: surfaceOctokit(github),
        instance,
        logger: captureLogger().logger,
      }),
    });

  const posted = () =>
    github
      .callsMatching('POST', /^\/repos\/octo\/repo\/issues\/\d+\/comments$/)
      .map((call) => ({ path: call.path, body: (call.body as { body?: unknown }).body }));

  it('posts an agent reply as a comment that ends with the hidden marker', async () => {
    const text = 'The build fails in `parser.ts`:\n\n```ts\nparse("")\n```';
    const target = await poster().post('github:octo/repo#12', text, 'reply');
    expect(target).toEqual({ surface: 'github', location: 'github:octo/repo#12' });
    expect(posted()).toEqual([
      {
        path: '/repos/octo/repo/issues/12/comments',
        body: `${text}\n\n${hiddenMarker('laptop-b')}`,
      },
    ]);
    expect(carriesMarker(String(posted()[0]?.body))).toBe(true);
  });

  it('puts a text file into the comment as a fenced block; a binary file is refused, nothing posted', async () => {
    const file = { name: 'out.log', content: Buffer.from('ok\n```\nstill inside\n') };
    await poster().post('github:octo/repo#12', 'the log:', 'reply', [file]);
    expect(posted()[0]?.body).toBe(
      `the log:\n\n**out.log**\n\n\`\`\`\`\nok\n\`\`\`\nstill inside\n\`\`\`\`\n\n${hiddenMarker('laptop-b')}`,
    );
    const binary = { name: 'shot.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]) };
    await expect(
      poster().post('github:octo/repo#12', 'see', 'reply', [binary]),
    ).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/not UTF-8 text/),
    });
    expect(posted()).toHaveLength(1);
  });

  it('posts on a pull request through its issue number, and notices too', async () => {
    await poster().post('github:octo/repo#40', 'waiting for your answer', 'notice');
    expect(posted().map((call) => call.path)).toEqual(['/repos/octo/repo/issues/40/comments']);
  });

  it.each<[string, boolean]>([
    ['github:octo/repo#12', true],
    ['github:Octo/Repo#12', true],
    ['https://github.com/octo/repo/pull/40', true],
    ['github:octo/other#12', false],
    ['github:evil/repo#12', false],
    ['standing:supervisor', false],
    ['not a ref', false],
  ])('accepts %s: %s', async (ref, expected) => {
    expect(await poster().accepts(ref)).toBe(expected);
  });

  it('refuses to post for a repository that is not configured, without calling GitHub', async () => {
    await expect(poster().post('github:evil/repo#1', 'hi', 'reply')).rejects.toThrow(
      /no GitHub repository configured/,
    );
    expect(github.calls).toEqual([]);
  });

  it('reports a comment GitHub refuses as github_failed', async () => {
    await expect(poster().post('github:octo/repo#99', 'hi', 'reply')).rejects.toMatchObject({
      code: 'github_failed',
      details: { status: 404 },
    });
  });
});
