import type { Octokit } from '@octokit/rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import { quietOctokit } from './quiet-octokit.js';

const t0 = Date.parse('2025-03-01T12:00:00Z');
const minutes = (n: number) => new Date(t0 + n * 60_000).toISOString();
const human = { login: 'octocat' };

describe('fake GitHub read by the real Octokit', () => {
  let github: FakeGithub;
  let octokit: Octokit;
  let clock = t0;

  beforeEach(async () => {
    clock = t0 + 10 * 60_000;
    github = await startFakeGithub({ token: 'ghs_test', now: () => clock });
    octokit = quietOctokit(github.apiUrl, 'ghs_test');
    github.addIssue('acme', 'widgets', { number: 1, title: 'Bug' });
    github.addIssue('acme', 'widgets', { number: 2, title: 'Fix', isPullRequest: true });
    github.addIssue('acme', 'other', { number: 1, title: 'Elsewhere' });
  });
  afterEach(async () => {
    await github.stop();
  });

  it('lists repository comments updated since a time, following Link pages', async () => {
    const ids = [0, 1, 2, 3, 4].map(
      (n) =>
        github.addComment('acme', 'widgets', 1 + (n % 2), {
          body: `c${n}`,
          user: human,
          createdAt: minutes(n),
        }).id,
    );
    github.addComment('acme', 'other', 1, {
      body: 'not this repo',
      user: human,
      createdAt: minutes(3),
    });
    expect(github.calls).toEqual([]);

    const comments = await octokit.paginate(octokit.rest.issues.listCommentsForRepo, {
      owner: 'acme',
      repo: 'widgets',
      since: minutes(2),
      per_page: 2,
    });

    expect(comments.map((c) => c.id)).toEqual(ids.slice(2));
    expect(comments[0]).toMatchObject({ body: 'c2', user: { login: 'octocat', type: 'User' } });
    const pages = github.callsMatching('GET', /^\/repos\/acme\/widgets\/issues\/comments$/);
    expect(pages.map((call) => [call.query['page'], call.query['since'], call.status])).toEqual([
      [undefined, minutes(2), 200],
      ['2', minutes(2), 200],
    ]);
  });

  it('orders by update time when asked, and lists one issue on its own', async () => {
    const first = github.addComment('acme', 'widgets', 1, {
      body: 'a',
      user: human,
      createdAt: minutes(0),
    });
    const second = github.addComment('acme', 'widgets', 1, {
      body: 'b',
      user: human,
      createdAt: minutes(1),
    });
    github.addComment('acme', 'widgets', 2, {
      body: 'on the PR',
      user: human,
      createdAt: minutes(2),
    });
    clock += 60_000;
    await octokit.rest.issues.updateComment({
      owner: 'acme',
      repo: 'widgets',
      comment_id: first.id,
      body: 'a2',
    });

    const { data: byUpdate } = await octokit.rest.issues.listCommentsForRepo({
      owner: 'acme',
      repo: 'widgets',
      sort: 'updated',
      direction: 'desc',
    });
    expect(byUpdate.map((c) => c.body)).toEqual(['a2', 'on the PR', 'b']);
    const { data: onIssue } = await octokit.rest.issues.listComments({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
    });
    expect(onIssue.map((c) => c.id)).toEqual([first.id, second.id]);
  });

  it('answers a repeated conditional request with 304, free of rate limit, until something changes', async () => {
    github.addComment('acme', 'widgets', 1, { body: 'first', user: human });
    const fresh = await octokit.rest.issues.listCommentsForRepo({ owner: 'acme', repo: 'widgets' });
    const etag = fresh.headers.etag ?? '';
    expect(etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('4999');

    const unchanged = octokit.rest.issues.listCommentsForRepo({
      owner: 'acme',
      repo: 'widgets',
      headers: { 'if-none-match': etag },
    });
    await expect(unchanged).rejects.toMatchObject({
      status: 304,
      response: { headers: { 'x-ratelimit-remaining': '4999' } },
    });

    github.addComment('acme', 'widgets', 1, { body: 'second', user: human });
    const changed = await octokit.rest.issues.listCommentsForRepo({
      owner: 'acme',
      repo: 'widgets',
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.data).toHaveLength(2);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('serves issues, pull requests, the bot user and the rate limit', async () => {
    const { data: issue } = await octokit.rest.issues.get({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 2,
    });
    expect(issue).toMatchObject({ number: 2, title: 'Fix', state: 'open' });
    expect(issue.pull_request?.html_url).toBe('https://github.com/acme/widgets/pull/2');
    const { data: pull } = await octokit.rest.pulls.get({
      owner: 'acme',
      repo: 'widgets',
      pull_number: 2,
    });
    expect(pull).toMatchObject({ number: 2, merged: false, base: { ref: 'main' } });
    await expect(
      octokit.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: 1 }),
    ).rejects.toMatchObject({
      status: 404,
    });
    const { data: me } = await octokit.rest.users.getAuthenticated();
    expect(me).toMatchObject({ login: 'the-loop-bot[bot]', type: 'Bot' });
    const { data: limits } = await octokit.rest.rateLimit.get();
    expect(limits.resources.core).toMatchObject({ limit: 5000, used: 4, remaining: 4996 });
  });

  it('refuses a wrong or missing token with 401 and unknown routes with 404', async () => {
    const stranger = quietOctokit(github.apiUrl, 'ghs_wrong');
    await expect(
      stranger.rest.issues.get({ owner: 'acme', repo: 'widgets', issue_number: 1 }),
    ).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('Bad credentials'),
    });
    const anonymous = quietOctokit(github.apiUrl);
    await expect(anonymous.rest.users.getAuthenticated()).rejects.toMatchObject({ status: 401 });
    const bearer = await anonymous.request('GET /user', {
      headers: { authorization: 'Bearer ghs_test' },
    });
    expect(bearer.status).toBe(200);

    await expect(
      octokit.request('GET /repos/{owner}/{repo}/labels', { owner: 'acme', repo: 'widgets' }),
    ).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('Not Found'),
    });
    await expect(
      octokit.rest.issues.listCommentsForRepo({ owner: 'nobody', repo: 'nothing' }),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect(github.calls.map((call) => call.status)).toEqual([401, 401, 200, 404, 404]);
  });
});
