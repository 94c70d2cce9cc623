import { describe, expect, it } from 'vitest';
import { fromPolledComment } from '../../../src/github/from-polled-comment.js';
import { fromWebhookPayload } from '../../../src/github/from-webhook-payload.js';
import {
  carriesMarker,
  commentDedupeIds,
  hiddenMarker,
  isBot,
  isGithubComment,
  type GithubComment,
} from '../../../src/github/github-comment.js';
import { workItemRef, workItemTarget } from '../../../src/refs.js';
import { loadExamplePayload, withComment } from '../../fakes/fake-github/webhook-delivery.js';

const comment = (change: Partial<GithubComment> = {}): GithubComment => ({
  source: 'webhook',
  deliveryId: 'd-1',
  kind: 'issue_comment',
  commentId: 77,
  body: 'hello',
  author: { login: 'octocat', type: 'User' },
  item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 },
  receivedAt: 0,
  ...change,
});

describe('hiddenMarker and carriesMarker', () => {
  it.each([
    ['laptop-b', '<!-- the-loop:instance=laptop-b -->'],
    ['', '<!-- the-loop:instance= -->'],
  ])('marks posts of instance %j', (instance, marker) => {
    expect(hiddenMarker(instance)).toBe(marker);
    expect(carriesMarker(`🟢 started\n\n${hiddenMarker(instance)}`)).toBe(true);
  });

  it.each<[string, string, boolean]>([
    ['a plain comment', 'the-loop start', false],
    ['another HTML comment', '<!-- note to self -->', false],
    ["another instance's marker", 'reply\n\n<!-- the-loop:instance=laptop-a -->', true],
    ['the marker quoted by a person', '> hi\n> <!-- the-loop:instance=x -->\n\nthanks', true],
    ['a mention of the keyword', 'the-loop:instance is a setting', false],
  ])('%s carries the marker: %s', (_label, body, expected) => {
    expect(carriesMarker(body)).toBe(expected);
  });
});

describe('isBot', () => {
  it.each<[string, string, boolean]>([
    ['octocat', 'User', false],
    ['dependabot[bot]', 'Bot', true],
    ['the-loop-bot[bot]', 'User', true],
    ['renovate', 'Bot', true],
    ['botany', 'User', false],
    ['bot', 'User', false],
    ['[bot]-fan', 'User', false],
  ])('%s (%s): %s', (login, type, expected) => {
    expect(isBot({ login, type })).toBe(expected);
  });
});

describe('commentDedupeIds', () => {
  it('gives a webhook copy its delivery id and the comment id', () => {
    expect(commentDedupeIds(comment())).toEqual([
      'github:delivery:d-1',
      'github:issue_comment:octo/repo:77',
    ]);
  });

  it('gives a polled copy only the comment id', () => {
    expect(commentDedupeIds(comment({ source: 'poll', deliveryId: '' }))).toEqual([
      'github:issue_comment:octo/repo:77',
    ]);
  });

  it('shares the comment id between the webhook copy and the polled copy of one comment', () => {
    const body = 'the-loop start';
    const webhook = fromWebhookPayload(
      'issue_comment',
      withComment(loadExamplePayload('issue_comment', 'created'), {
        body,
        login: 'octocat',
        repo: 'Octo/Repo',
        number: 12,
        commentId: 9001,
      }),
      'delivery-a',
      1,
    );
    // The poller spells the repository as the config does, and knows no delivery id.
    const polled = fromPolledComment(
      {
        id: 9001,
        body,
        user: { login: 'octocat', type: 'User' },
        issue_url: 'https://api.github.com/repos/octo/repo/issues/12',
        html_url: 'https://github.com/octo/repo/issues/12#issuecomment-9001',
        created_at: '2024-05-01T10:00:05Z',
        updated_at: '2024-05-01T10:00:05Z',
      },
      { host: 'github.com', owner: 'octo', repo: 'repo' },
      '2024-05-01T10:00:00Z',
      2,
    );
    if (!webhook || !polled) throw new Error('both copies must parse');
    const shared = commentDedupeIds(webhook).filter((id) => commentDedupeIds(polled).includes(id));
    expect(shared).toEqual(['github:issue_comment:octo/repo:9001']);
  });

  it('gives the webhook copy and the polled copy of one comment the same work item', () => {
    // The official example lives in Codertocat/Hello-World; the config spells it in lower case.
    const example = loadExamplePayload('issue_comment', 'created');
    const webhook = fromWebhookPayload('issue_comment', example, 'delivery-a', 1);
    const polled = fromPolledComment(
      {
        id: example.comment.id,
        body: example.comment.body,
        user: { login: example.comment.user.login, type: example.comment.user.type },
        issue_url: example.comment.issue_url,
        html_url: example.comment.html_url,
        created_at: example.comment.created_at,
        updated_at: example.comment.updated_at,
      },
      { host: 'github.com', owner: 'codertocat', repo: 'hello-world' },
      example.comment.created_at,
      2,
    );
    if (!webhook || !polled) throw new Error('both copies must parse');
    expect(workItemRef(polled.item)).toBe(workItemRef(webhook.item));
    expect(workItemTarget(polled.item)).toBe(workItemTarget(webhook.item));
  });

  it('keeps two deliveries of different comments apart, and a redelivery of one together', () => {
    const first = commentDedupeIds(comment());
    const redelivered = commentDedupeIds(comment({ deliveryId: 'd-2' }));
    const other = commentDedupeIds(comment({ deliveryId: 'd-3', commentId: 78 }));
    expect(first.filter((id) => redelivered.includes(id))).toEqual([
      'github:issue_comment:octo/repo:77',
    ]);
    expect(first.filter((id) => other.includes(id))).toEqual([]);
  });

  it('keeps the same number apart across kinds and repositories', () => {
    const ids = [
      comment({ kind: 'issue_comment' }),
      comment({ kind: 'review_comment' }),
      comment({ kind: 'review' }),
      comment({ item: { host: 'github.com', owner: 'octo', repo: 'other', number: 12 } }),
    ].map((each) => commentDedupeIds({ ...each, deliveryId: '' })[0]);
    expect(new Set(ids).size).toBe(4);
  });
});

describe('isGithubComment', () => {
  it('accepts a comment as the inbox stores it', () => {
    expect(isGithubComment(JSON.parse(JSON.stringify(comment())))).toBe(true);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'comment'],
    ['an unknown source', { ...comment(), source: 'email' }],
    ['an unknown kind', { ...comment(), kind: 'commit_comment' }],
    ['a comment id as text', { ...comment(), commentId: '77' }],
    ['no author', { ...comment(), author: null }],
    ['no item', { ...comment(), item: undefined }],
    ['an item number as text', { ...comment(), item: { ...comment().item, number: '12' } }],
    ['no receivedAt', { ...comment(), receivedAt: undefined }],
  ])('refuses %s', (_label, value) => {
    expect(isGithubComment(value)).toBe(false);
  });
});
