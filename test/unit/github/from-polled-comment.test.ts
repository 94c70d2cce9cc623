import { describe, expect, it } from 'vitest';
import { fromPolledComment, type PolledComment } from '../../../src/github/from-polled-comment.js';
import type { GithubComment } from '../../../src/github/github-comment.js';

const api = 'https://api.github.com/repos/octo/repo';
const repo = { host: 'github.com', owner: 'octo', repo: 'repo' };
const since = '2024-05-01T10:00:00Z';
const receivedAt = 1_714_557_700_000;

/** A comment as `GET /repos/{owner}/{repo}/issues/comments` lists it. */
function polled(change: Partial<PolledComment> = {}): PolledComment {
  return {
    id: 1_000_007,
    body: 'the-loop start',
    user: { login: 'octocat', type: 'User' },
    issue_url: `${api}/issues/12`,
    html_url: 'https://github.com/octo/repo/issues/12#issuecomment-1000007',
    created_at: '2024-05-01T10:00:05Z',
    updated_at: '2024-05-01T10:00:05Z',
    ...change,
  };
}

describe('fromPolledComment', () => {
  it('reads a new comment on an issue as an issue comment without a delivery id', () => {
    expect(fromPolledComment(polled(), repo, since, receivedAt)).toEqual({
      source: 'poll',
      deliveryId: '',
      kind: 'issue_comment',
      commentId: 1_000_007,
      body: 'the-loop start',
      author: { login: 'octocat', type: 'User' },
      item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 },
      receivedAt,
    } satisfies GithubComment);
  });

  it('reads a comment on a pull request from its issue_url, whatever its html_url says', () => {
    const comment = polled({
      issue_url: `${api}/issues/40`,
      html_url: 'https://github.com/octo/repo/pull/40#issuecomment-1000007',
    });
    expect(fromPolledComment(comment, repo, since, receivedAt)?.item.number).toBe(40);
  });

  it('reads a comment from the review-comment list as a review comment on its pull request', () => {
    const { issue_url: _unused, ...rest } = polled();
    const comment: PolledComment = {
      ...rest,
      pull_request_url: `${api}/pulls/40`,
      html_url: 'https://github.com/octo/repo/pull/40#discussion_r1000007',
    };
    expect(fromPolledComment(comment, repo, since, receivedAt)).toMatchObject({
      kind: 'review_comment',
      commentId: 1_000_007,
      item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 40 },
    });
  });

  it('drops a review comment whose pull_request_url names no pull request', () => {
    const { issue_url: _unused, ...rest } = polled();
    const comment: PolledComment = { ...rest, pull_request_url: `${api}/issues/40` };
    expect(fromPolledComment(comment, repo, since, receivedAt)).toBeUndefined();
  });

  it('takes the host of the repository it polled', () => {
    const ghes = { host: 'ghe.example.com', owner: 'octo', repo: 'repo' };
    expect(fromPolledComment(polled(), ghes, since, receivedAt)?.item.host).toBe('ghe.example.com');
  });

  it('spells owner and repository as GitHub does in issue_url, not as the config does', () => {
    // The webhook reports GitHub's spelling; both copies must name the same session.
    const comment = polled({
      issue_url: 'https://api.github.com/repos/Codertocat/Hello-World/issues/1',
    });
    const configured = { host: 'github.com', owner: 'codertocat', repo: 'hello-world' };
    expect(fromPolledComment(comment, configured, since, receivedAt)?.item).toEqual({
      host: 'github.com',
      owner: 'Codertocat',
      repo: 'Hello-World',
      number: 1,
    });
  });

  it.each<[string, boolean, string]>([
    ['created after the cursor', true, '2024-05-01T10:00:05Z'],
    ['created at the cursor', true, since],
    [
      'created a second before the cursor (an edit of an older comment)',
      false,
      '2024-05-01T09:59:59Z',
    ],
    ['created a day before the cursor', false, '2024-04-30T10:00:00Z'],
  ])('a comment %s: accepted %s', (_label, accepted, createdAt) => {
    const comment = polled({ created_at: createdAt, updated_at: '2024-05-01T10:00:09Z' });
    expect(fromPolledComment(comment, repo, since, receivedAt) !== undefined).toBe(accepted);
  });

  it('accepts a comment created in the same second as a cursor that has milliseconds', () => {
    // GitHub's timestamps have whole seconds: a comment made 300 ms after a poll that began at
    // 10:00:00.500 is stamped 10:00:00Z, and GitHub lists it for that cursor.
    const comment = polled({ created_at: since, updated_at: since });
    expect(fromPolledComment(comment, repo, '2024-05-01T10:00:00.500Z', receivedAt)).toBeDefined();
  });

  it.each<[string, Partial<PolledComment>]>([
    ['no author (a deleted account)', { user: null }],
    ['an issue_url that names no issue', { issue_url: `${api}/pulls/12` }],
    ['an issue_url with issue 0', { issue_url: `${api}/issues/0` }],
    ['an issue_url with text after the number', { issue_url: `${api}/issues/12/comments` }],
  ])('drops a comment with %s', (_label, change) => {
    expect(fromPolledComment(polled(change), repo, since, receivedAt)).toBeUndefined();
  });

  it('reads a missing body as empty and a missing author type as a User', () => {
    const comment = polled({ body: null, user: { login: 'octocat' } });
    expect(fromPolledComment(comment, repo, since, receivedAt)).toMatchObject({
      body: '',
      author: { login: 'octocat', type: 'User' },
    });
  });

  it('keeps a bot author a Bot, for the handler to ignore', () => {
    const comment = polled({ user: { login: 'the-loop-bot[bot]', type: 'Bot' } });
    expect(fromPolledComment(comment, repo, since, receivedAt)?.author.type).toBe('Bot');
  });
});
