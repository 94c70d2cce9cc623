import type { Octokit } from '@octokit/rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import { quietOctokit } from './quiet-octokit.js';

const repo = { owner: 'acme', repo: 'widgets' };
const human = { login: 'octocat' };

describe('fake GitHub written to by the real Octokit', () => {
  let github: FakeGithub;
  let octokit: Octokit;

  beforeEach(async () => {
    github = await startFakeGithub();
    octokit = quietOctokit(github.apiUrl, github.token);
    github.addIssue('acme', 'widgets', { number: 7, title: 'Bug' });
    github.addIssue('acme', 'widgets', { number: 8, title: 'Fix', isPullRequest: true });
  });
  afterEach(async () => {
    await github.stop();
  });

  it('creates a comment as the bot, edits it and records only the writes', async () => {
    const created = await octokit.rest.issues.createComment({
      ...repo,
      issue_number: 7,
      body: 'on it',
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      body: 'on it',
      user: { login: 'the-loop-bot[bot]', type: 'Bot' },
      html_url: `https://github.com/acme/widgets/issues/7#issuecomment-${created.data.id}`,
      issue_url: `${github.apiUrl}/repos/acme/widgets/issues/7`,
    });
    expect(created.headers.location).toBe(created.data.url);
    await octokit.rest.issues.updateComment({ ...repo, comment_id: created.data.id, body: 'done' });
    await octokit.rest.issues.getComment({ ...repo, comment_id: created.data.id });

    expect(github.commentBody(created.data.id)).toBe('done');
    expect(
      github.writeCalls().map((call) => [call.method, call.path, call.body, call.status]),
    ).toEqual([
      ['POST', '/repos/acme/widgets/issues/7/comments', { body: 'on it' }, 201],
      ['PATCH', `/repos/acme/widgets/issues/comments/${created.data.id}`, { body: 'done' }, 200],
    ]);
    await expect(
      octokit.rest.issues.createComment({ ...repo, issue_number: 99, body: 'nowhere' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('adds reactions to issue and review comments, once per content', async () => {
    const comment = github.addComment('acme', 'widgets', 7, {
      body: 'the-loop start',
      user: human,
    });
    const review = github.addReviewComment('acme', 'widgets', 8, { body: 'nit', user: human });
    expect(review.id).toBeGreaterThan(comment.id);
    const waiting = github.waitForCall('POST', /\/pulls\/comments\/\d+\/reactions$/);

    const eyes = await octokit.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: comment.id,
      content: 'eyes',
    });
    const again = await octokit.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: comment.id,
      content: 'eyes',
    });
    const rocket = await octokit.rest.reactions.createForPullRequestReviewComment({
      ...repo,
      comment_id: review.id,
      content: 'rocket',
    });

    expect([eyes.status, again.status, rocket.status]).toEqual([201, 200, 201]);
    expect(again.data.id).toBe(eyes.data.id);
    expect((await waiting).body).toEqual({ content: 'rocket' });
    expect(github.reactionsOn(comment.id)).toEqual(['eyes']);
    expect(github.reactionsOn(review.id)).toEqual(['rocket']);
    const { data: seen } = await octokit.rest.issues.getComment({
      ...repo,
      comment_id: comment.id,
    });
    expect(seen.reactions).toMatchObject({ total_count: 1, eyes: 1, rocket: 0 });
    // An issue comment id is not a review comment id, as on GitHub.
    await expect(
      octokit.rest.reactions.createForPullRequestReviewComment({
        ...repo,
        comment_id: comment.id,
        content: '+1',
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('surfaces an injected 502 as an error, then recovers', async () => {
    github.failNext({ method: 'POST', path: /\/comments$/ }, { status: 502 });
    const attempt = () =>
      octokit.rest.issues.createComment({ ...repo, issue_number: 7, body: 'hi' });

    await expect(attempt()).rejects.toMatchObject({ status: 502 });
    await expect(attempt()).resolves.toMatchObject({ status: 201 });
    expect(github.calls.map((call) => call.status)).toEqual([502, 201]);
  });

  it('answers a primary rate limit the way GitHub does', async () => {
    const before = Math.floor(Date.now() / 1000);
    github.failNext({ path: /\/issues\/7$/ }, { rateLimit: true, resetInSeconds: 120 }, 2);
    const get = () => octokit.rest.issues.get({ ...repo, issue_number: 7 });

    const failure: unknown = await get().catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 403,
      message: expect.stringContaining('API rate limit exceeded'),
      response: { headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '5000' } },
    });
    const headers = (failure as { response: { headers: Record<string, string> } }).response.headers;
    expect(Number(headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(before + 120);
    await expect(get()).rejects.toMatchObject({ status: 403 });
    await expect(get()).resolves.toMatchObject({ status: 200 });
  });

  it('answers a secondary rate limit with retry-after', async () => {
    github.failNext({ method: 'post' }, { secondaryRateLimit: true, retryAfterSeconds: 30 });
    await expect(octokit.rest.issues.get({ ...repo, issue_number: 7 })).resolves.toMatchObject({
      status: 200,
    });
    await expect(
      octokit.rest.issues.createComment({ ...repo, issue_number: 7, body: 'hi' }),
    ).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('secondary rate limit'),
      response: { headers: { 'retry-after': '30' } },
    });
  });

  it('waits for calls by event, times out naming the call, and forgets calls on reset', async () => {
    await expect(github.waitForCall('DELETE', /\/comments\//, 50)).rejects.toThrow(/no DELETE/);
    github.failNext({}, { status: 418, message: 'teapot' });
    await expect(octokit.rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 418,
      message: expect.stringContaining('teapot'),
    });
    expect(github.calls).toHaveLength(1);

    github.reset();
    expect(github.calls).toEqual([]);
    expect(github.writeCalls()).toEqual([]);
    await expect(octokit.rest.users.getAuthenticated()).resolves.toMatchObject({ status: 200 });
    expect(github.callsMatching('get', /^\/user$/)).toHaveLength(1);
  });
});
