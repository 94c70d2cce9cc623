import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
} from '../../fakes/fake-github/webhook-delivery.js';

const secret = 'It is a secret to everybody';
const comment = loadExamplePayload('issue_comment', 'created');
const reviewComment = loadExamplePayload('pull_request_review_comment', 'created');
const review = loadExamplePayload('pull_request_review', 'submitted');

describe('example payloads', () => {
  it.each([
    ['issue_comment', comment, 'created'],
    ['pull_request_review_comment', reviewComment, 'created'],
    ['pull_request_review', review, 'submitted'],
  ] as const)('loads %s from @octokit/webhooks-examples', (_event, payload, action) => {
    expect(payload.action).toBe(action);
    expect(payload.repository.full_name).toMatch(/^[^/]+\/[^/]+$/);
  });

  it('names what is missing when no example matches', () => {
    expect(() => loadExamplePayload('issue_comment', 'teleported')).toThrow(
      /issue_comment\.teleported/,
    );
  });

  it('sets an issue comment consistently and leaves the example untouched', () => {
    const before = structuredClone(comment);
    const payload = withComment(comment, {
      body: 'the-loop start',
      login: 'alice',
      repo: 'acme/widgets',
      number: 12,
      commentId: 555,
      isPullRequest: true,
    });

    expect(comment).toEqual(before);
    expect(payload.repository).toMatchObject({
      name: 'widgets',
      full_name: 'acme/widgets',
      owner: { login: 'acme' },
      html_url: 'https://github.com/acme/widgets',
    });
    expect(payload.issue).toMatchObject({
      number: 12,
      html_url: 'https://github.com/acme/widgets/pull/12',
    });
    expect(payload.issue.pull_request?.url).toBe(
      'https://api.github.com/repos/acme/widgets/pulls/12',
    );
    expect(payload.comment).toMatchObject({
      id: 555,
      body: 'the-loop start',
      user: { login: 'alice', type: 'User' },
      html_url: 'https://github.com/acme/widgets/pull/12#issuecomment-555',
    });
    expect(payload.sender).toMatchObject({ login: 'alice', type: 'User' });
    expect(JSON.stringify(payload)).not.toContain(before.repository.full_name);

    const onIssue = withComment(payload, { body: 'x', login: 'helper[bot]', isPullRequest: false });
    expect(onIssue.issue.pull_request).toBeUndefined();
    expect(onIssue.comment.user).toMatchObject({ login: 'helper[bot]', type: 'Bot' });
  });

  it('sets review comments and reviews on the pull request', () => {
    const change = {
      body: 'instance:alpha go',
      login: 'bob',
      repo: 'acme/widgets',
      number: 3,
      commentId: 77,
    };
    const onDiff = withComment(reviewComment, change);
    expect(onDiff.pull_request.number).toBe(3);
    expect(onDiff.comment).toMatchObject({ id: 77, body: change.body, user: { login: 'bob' } });
    expect(onDiff.comment.html_url).toBe('https://github.com/acme/widgets/pull/3#discussion_r77');

    const submitted = withComment(review, { ...change, userType: 'Bot' });
    expect(submitted.pull_request.number).toBe(3);
    expect(submitted.review).toMatchObject({
      id: 77,
      body: change.body,
      user: { login: 'bob', type: 'Bot' },
    });
  });
});

describe('signed deliveries', () => {
  const webhooks = new Webhooks({ secret });

  it('signs as GitHub does, so @octokit/webhooks accepts it and a wrong secret does not', async () => {
    const delivery = signDelivery(secret, comment, { event: 'issue_comment' });

    expect(delivery.headers).toMatchObject({
      'x-github-event': 'issue_comment',
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake',
    });
    expect(delivery.headers['x-github-delivery']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(JSON.parse(delivery.body)).toEqual(comment);
    const signature = delivery.headers['x-hub-signature-256'];
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    await expect(webhooks.verify(delivery.body, signature)).resolves.toBe(true);
    await expect(new Webhooks({ secret: 'wrong' }).verify(delivery.body, signature)).resolves.toBe(
      false,
    );
    await expect(webhooks.verify(`${delivery.body} `, signature)).resolves.toBe(false);
  });

  it('keeps a given delivery id and signs a raw string as it is', async () => {
    const delivery = signDelivery(secret, '{"not json', { event: 'ping', deliveryId: 'd-1' });
    expect(delivery.body).toBe('{"not json');
    expect(delivery.headers['x-github-delivery']).toBe('d-1');
    await expect(
      webhooks.verify(delivery.body, delivery.headers['x-hub-signature-256']),
    ).resolves.toBe(true);
  });

  it('posts the exact bytes and headers to a receiver', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(202).end('accepted');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const delivery = signDelivery(secret, review, { event: 'pull_request_review' });
      const answer = await postDelivery(`http://127.0.0.1:${port}/github/webhook`, delivery);

      expect(answer).toEqual({ status: 202, body: 'accepted' });
      expect(received).toHaveLength(1);
      expect(received[0]?.body).toBe(delivery.body);
      expect(received[0]?.headers).toMatchObject(delivery.headers);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
