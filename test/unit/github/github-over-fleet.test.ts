import { describe, expect, it } from 'vitest';
import { githubMessageId } from '../../../src/github/github-over-fleet.js';
import type { GithubComment } from '../../../src/github/github-comment.js';

const comment = (change: Partial<GithubComment>): GithubComment => ({
  source: 'webhook',
  deliveryId: 'd-1',
  kind: 'issue_comment',
  commentId: 42,
  body: 'the-loop start',
  author: { login: 'octocat', type: 'User' },
  item: { host: 'github.com', owner: 'Octo', repo: 'Repo', number: 12 },
  receivedAt: 0,
  ...change,
});

describe('githubMessageId: the Nats-Msg-Id of a comment on loop.gh (docs/design.md §21)', () => {
  it('is the X-GitHub-Delivery of a webhook delivery', () => {
    expect(githubMessageId(comment({}))).toBe('d-1');
  });
  it('is the kind, repository and comment id of a polled comment, so two pollers publish one', () => {
    const polled = comment({ source: 'poll', deliveryId: '' });
    expect(githubMessageId(polled)).toBe('poll:issue_comment:octo/repo:42');
    expect(githubMessageId({ ...polled, receivedAt: 99 })).toBe(githubMessageId(polled));
    expect(githubMessageId({ ...polled, kind: 'review_comment' })).not.toBe(
      githubMessageId(polled),
    );
  });
});
