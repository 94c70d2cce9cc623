import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromWebhookPayload } from '../../../src/github/from-webhook-payload.js';
import type { GithubComment } from '../../../src/github/github-comment.js';
import {
  loadExamplePayload,
  withComment,
  type ExamplePayload,
} from '../../fakes/fake-github/webhook-delivery.js';

type Json = Record<string, unknown>;

const delivery = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
const receivedAt = 1_714_557_600_000;

/** A deep copy of a payload with one change applied, for the hostile variants. */
function variant(payload: ExamplePayload, change: (copy: Json) => void): Json {
  const copy = structuredClone(payload) as unknown as Json;
  change(copy);
  return copy;
}

const child = (value: Json, key: string): Json => value[key] as Json;

/** Examples of events the-loop does not handle, straight from the same package. */
function otherExample(event: string): Json {
  const file = createRequire(import.meta.url).resolve('@octokit/webhooks-examples');
  const definitions = JSON.parse(readFileSync(file, 'utf8')) as {
    name: string;
    examples: Json[];
  }[];
  const example = definitions.find((definition) => definition.name === event)?.examples[0];
  if (!example) throw new Error(`no ${event} example`);
  return example;
}

describe('fromWebhookPayload', () => {
  let issueComment: ExamplePayload<'issue_comment'>;
  let reviewComment: ExamplePayload<'pull_request_review_comment'>;
  let review: ExamplePayload<'pull_request_review'>;

  beforeAll(() => {
    issueComment = loadExamplePayload('issue_comment', 'created');
    reviewComment = loadExamplePayload('pull_request_review_comment', 'created');
    review = loadExamplePayload('pull_request_review', 'submitted');
  });

  describe('the three handled events, from the official examples', () => {
    it('reads issue_comment.created', () => {
      expect(fromWebhookPayload('issue_comment', issueComment, delivery, receivedAt)).toEqual({
        source: 'webhook',
        deliveryId: delivery,
        kind: 'issue_comment',
        commentId: 492700400,
        body: "You are totally right! I'll get this fixed right away.",
        author: { login: 'Codertocat', type: 'User' },
        item: { host: 'github.com', owner: 'Codertocat', repo: 'Hello-World', number: 1 },
        receivedAt,
      } satisfies GithubComment);
    });

    it('reads pull_request_review_comment.created as a review comment on the pull request', () => {
      expect(
        fromWebhookPayload('pull_request_review_comment', reviewComment, delivery, receivedAt),
      ).toEqual({
        source: 'webhook',
        deliveryId: delivery,
        kind: 'review_comment',
        commentId: 284312630,
        body: 'Maybe you should use more emoji on this line.',
        author: { login: 'Codertocat', type: 'User' },
        item: { host: 'github.com', owner: 'Codertocat', repo: 'Hello-World', number: 2 },
        receivedAt,
      } satisfies GithubComment);
    });

    it('reads pull_request_review.submitted; a review without a body has an empty one', () => {
      expect(fromWebhookPayload('pull_request_review', review, delivery, receivedAt)).toEqual({
        source: 'webhook',
        deliveryId: delivery,
        kind: 'review',
        commentId: 237895671,
        body: '',
        author: { login: 'Codertocat', type: 'User' },
        item: { host: 'github.com', owner: 'Codertocat', repo: 'Hello-World', number: 2 },
        receivedAt,
      } satisfies GithubComment);
    });

    const change = {
      body: 'the-loop start',
      login: 'octocat',
      repo: 'octo/repo',
      number: 12,
      commentId: 4242,
    };
    it.each<[string, string, () => ExamplePayload]>([
      ['an issue comment', 'issue_comment', () => withComment(issueComment, change)],
      [
        'a comment on a pull request conversation',
        'issue_comment',
        () => withComment(issueComment, { ...change, isPullRequest: true }),
      ],
      [
        'a review comment on a diff',
        'pull_request_review_comment',
        () => withComment(reviewComment, change),
      ],
      ['a review', 'pull_request_review', () => withComment(review, change)],
    ])('keeps what withComment set on %s', (_label, event, payload) => {
      expect(fromWebhookPayload(event, payload(), 'd-1', 7)).toMatchObject({
        deliveryId: 'd-1',
        receivedAt: 7,
        commentId: 4242,
        body: 'the-loop start',
        author: { login: 'octocat', type: 'User' },
        item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 },
      });
    });

    it('reports a bot author as a Bot', () => {
      const payload = withComment(issueComment, { body: 'hi', login: 'ci-helper[bot]' });
      expect(fromWebhookPayload('issue_comment', payload, 'd', 0)?.author).toEqual({
        login: 'ci-helper[bot]',
        type: 'Bot',
      });
    });

    it('takes a missing author type for a User', () => {
      const payload = variant(issueComment, (copy) => {
        delete child(child(copy, 'comment'), 'user')['type'];
      });
      expect(fromWebhookPayload('issue_comment', payload, 'd', 0)?.author.type).toBe('User');
    });
  });

  describe('anything else is not a comment to judge', () => {
    it.each([
      ['issue_comment', 'edited'],
      ['issue_comment', 'deleted'],
      ['pull_request_review_comment', 'edited'],
      ['pull_request_review_comment', 'deleted'],
      ['pull_request_review', 'dismissed'],
    ] as const)('%s.%s (edits are not re-judged)', (event, action) => {
      expect(fromWebhookPayload(event, loadExamplePayload(event, action), 'd', 0)).toBeUndefined();
    });

    it.each<[string, string, () => unknown]>([
      ['a push', 'push', () => otherExample('push')],
      ['an issue event', 'issues', () => otherExample('issues')],
      ['a ping', 'ping', () => ({ zen: 'Keep it logically awesome.', hook_id: 1 })],
      ['a comment payload under another event name', 'issues', () => issueComment],
      ['a comment payload without an event name', '', () => issueComment],
      ['a review payload sent as issue_comment', 'issue_comment', () => review],
      ['an issue comment sent as a review', 'pull_request_review', () => issueComment],
    ])('%s', (_label, event, payload) => {
      expect(fromWebhookPayload(event, payload(), 'd', 0)).toBeUndefined();
    });
  });

  describe('malformed payloads', () => {
    it.each<[string, unknown]>([
      ['null', null],
      ['an array', [{ action: 'created' }]],
      ['a string', 'issue_comment'],
      ['a number', 42],
      ['an empty object', {}],
    ])('%s', (_label, payload) => {
      expect(fromWebhookPayload('issue_comment', payload, 'd', 0)).toBeUndefined();
    });

    it.each<[string, (copy: Json) => void]>([
      ['no repository', (copy) => delete copy['repository']],
      ['a repository that is a list', (copy) => (copy['repository'] = [])],
      ['no repository owner', (copy) => delete child(copy, 'repository')['owner']],
      [
        'an owner login that is no string',
        (copy) => (child(child(copy, 'repository'), 'owner')['login'] = 7),
      ],
      ['no repository name', (copy) => delete child(copy, 'repository')['name']],
      ['an empty repository name', (copy) => (child(copy, 'repository')['name'] = '')],
      ['no issue', (copy) => delete copy['issue']],
      ['an issue number that is a string', (copy) => (child(copy, 'issue')['number'] = '1')],
      ['an issue number of 0', (copy) => (child(copy, 'issue')['number'] = 0)],
      ['a negative issue number', (copy) => (child(copy, 'issue')['number'] = -3)],
      ['a fractional issue number', (copy) => (child(copy, 'issue')['number'] = 1.5)],
      ['no comment', (copy) => delete copy['comment']],
      ['a comment that is null', (copy) => (copy['comment'] = null)],
      ['a comment id that is a string', (copy) => (child(copy, 'comment')['id'] = '492700400')],
      ['no comment author', (copy) => delete child(copy, 'comment')['user']],
      ['an author that is null', (copy) => (child(copy, 'comment')['user'] = null)],
      [
        'an author without a login',
        (copy) => delete child(child(copy, 'comment'), 'user')['login'],
      ],
    ])('%s', (_label, change) => {
      expect(
        fromWebhookPayload('issue_comment', variant(issueComment, change), 'd', 0),
      ).toBeUndefined();
    });

    it('reads a body that is not a string as an empty comment', () => {
      const payload = variant(issueComment, (copy) => (child(copy, 'comment')['body'] = null));
      expect(fromWebhookPayload('issue_comment', payload, 'd', 0)?.body).toBe('');
    });
  });

  describe('the host comes from repository.html_url (GitHub Enterprise Server)', () => {
    it.each<[string, unknown, string]>([
      ['github.com', 'https://github.com/octo/repo', 'github.com'],
      ['a GHES host', 'https://ghe.example.com/octo/repo', 'ghe.example.com'],
      ['a GHES host in capitals', 'https://GHE.Example.COM/octo/repo', 'ghe.example.com'],
      ['a GHES host with a port', 'https://ghe.example.com:8443/octo/repo', 'ghe.example.com:8443'],
      ['no html_url', undefined, 'github.com'],
      ['an html_url that is no URL', 'not a url', 'github.com'],
      ['an html_url that is no string', 17, 'github.com'],
    ])('%s', (_label, htmlUrl, host) => {
      const payload = variant(issueComment, (copy) => {
        const repository = child(copy, 'repository');
        if (htmlUrl === undefined) delete repository['html_url'];
        else repository['html_url'] = htmlUrl;
      });
      expect(fromWebhookPayload('issue_comment', payload, 'd', 0)?.item.host).toBe(host);
    });
  });
});
