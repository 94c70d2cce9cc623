import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookIngress,
  maxWebhookBytes,
} from '../../../src/github/create-webhook-ingress.js';
import type { GithubComment } from '../../../src/github/github-comment.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
  type ExamplePayload,
} from '../../fakes/fake-github/webhook-delivery.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { rawRequest, serveListener, type ServedListener } from './serve-listener.js';

const secret = 'webhook-secret-for-tests';
const receivedAt = 1_714_557_600_000;

describe('createWebhookIngress on a real HTTP server', () => {
  let example: ExamplePayload<'issue_comment'>;
  let served: ServedListener | undefined;
  let accepted: GithubComment[];

  beforeAll(() => {
    example = loadExamplePayload('issue_comment', 'created');
  });

  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  const start = async (
    options: { secret?: string; accept?: (c: GithubComment) => Promise<void> } = {},
  ) => {
    accepted = [];
    const log = captureLogger();
    served = await serveListener(
      createWebhookIngress({
        secret: options.secret ?? secret,
        accept: options.accept ?? (async (comment) => void accepted.push(comment)),
        logger: log.logger,
        now: () => receivedAt,
      }),
    );
    return { url: served.url, log };
  };

  const payload = (body = 'the-loop start') =>
    withComment(example, {
      body,
      login: 'octocat',
      repo: 'octo/repo',
      number: 12,
      commentId: 9001,
    });

  it('accepts a signed issue_comment.created with 202 and hands on the parsed comment', async () => {
    const { url } = await start();
    const delivery = signDelivery(secret, payload(), { event: 'issue_comment', deliveryId: 'd-1' });
    const answer = await postDelivery(url, delivery);
    expect(answer).toEqual({ status: 202, body: JSON.stringify({ accepted: true }) });
    expect(accepted).toEqual([
      {
        source: 'webhook',
        deliveryId: 'd-1',
        kind: 'issue_comment',
        commentId: 9001,
        body: 'the-loop start',
        author: { login: 'octocat', type: 'User' },
        item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 },
        receivedAt,
      },
    ]);
  });

  it('accepts the review events too', async () => {
    const { url } = await start();
    const reviewComment = withComment(
      loadExamplePayload('pull_request_review_comment', 'created'),
      {
        body: 'nit',
        login: 'octocat',
        repo: 'octo/repo',
        number: 40,
        commentId: 1,
      },
    );
    const review = withComment(loadExamplePayload('pull_request_review', 'submitted'), {
      body: 'looks good',
      login: 'octocat',
      repo: 'octo/repo',
      number: 40,
      commentId: 2,
    });
    for (const [event, body] of [
      ['pull_request_review_comment', reviewComment],
      ['pull_request_review', review],
    ] as const) {
      expect((await postDelivery(url, signDelivery(secret, body, { event }))).status).toBe(202);
    }
    expect(accepted.map((comment) => [comment.kind, comment.commentId])).toEqual([
      ['review_comment', 1],
      ['review', 2],
    ]);
  });

  it('answers 202 with accepted:false for an event it does not handle, and hands on nothing', async () => {
    const { url } = await start();
    const push = { ref: 'refs/heads/main', repository: { name: 'repo', owner: { login: 'octo' } } };
    for (const [event, body] of [
      ['push', push],
      ['issue_comment', loadExamplePayload('issue_comment', 'edited')],
    ] as const) {
      const answer = await postDelivery(url, signDelivery(secret, body, { event }));
      expect(answer.status).toBe(202);
      expect(JSON.parse(answer.body)).toEqual({
        accepted: false,
        reason: 'not an event the-loop handles',
      });
    }
    expect(accepted).toEqual([]);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405', async (method) => {
    const { url } = await start();
    const answer = await rawRequest(url, { method });
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body)).toEqual({ error: 'POST a GitHub webhook delivery here' });
    expect(accepted).toEqual([]);
  });

  it('answers 401 to a missing signature and to a wrong one, and logs no secret', async () => {
    const { url, log } = await start();
    const signed = signDelivery(secret, payload(), { event: 'issue_comment' });
    const { 'x-hub-signature-256': _dropped, ...unsignedHeaders } = signed.headers;
    const forged = signDelivery('not-the-secret', payload(), { event: 'issue_comment' });
    const tampered = { ...signed, body: signed.body.replace('the-loop start', 'the-loop stop') };
    const answers = [
      await rawRequest(url, { headers: unsignedHeaders, chunks: [signed.body] }),
      await postDelivery(url, forged),
      await postDelivery(url, tampered),
      await postDelivery(url, {
        ...signed,
        headers: { ...signed.headers, 'x-hub-signature-256': 'sha256=zz' },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    expect(JSON.parse(answers[0]?.body ?? '')).toEqual({
      error: 'signature does not match GITHUB_WEBHOOK_SECRET',
    });
    expect(accepted).toEqual([]);
    expect(log.lines.filter((line) => line['event'] === 'github.bad_signature')).toHaveLength(4);
    expect(log.text()).not.toContain(secret);
  });

  it('answers 400 to a body that is not JSON, even when it is signed', async () => {
    const { url } = await start();
    const answer = await postDelivery(
      url,
      signDelivery(secret, '{not json', { event: 'issue_comment' }),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'the body is not JSON' });
    expect(accepted).toEqual([]);
  });

  it('answers 202 accepted:false to signed JSON that is no object', async () => {
    const { url } = await start();
    for (const body of ['null', '[]', '"text"', '42']) {
      const answer = await postDelivery(
        url,
        signDelivery(secret, body, { event: 'issue_comment' }),
      );
      expect(answer.status).toBe(202);
      expect(JSON.parse(answer.body)).toMatchObject({ accepted: false });
    }
    expect(accepted).toEqual([]);
  });

  describe('a body over the limit', () => {
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    const oversized = Array.from(
      { length: Math.ceil(maxWebhookBytes / megabyte.length) + 1 },
      () => megabyte,
    );
    const size = oversized.length * megabyte.length;

    // Repeated, because a server that drops the connection with the body unread makes the
    // kernel send a reset that can reach the sender before the 413 does.
    it('is answered 413 when Content-Length announces it, every time', async () => {
      const { url } = await start();
      const statuses: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        const answer = await rawRequest(url, {
          headers: { 'x-github-event': 'issue_comment' },
          chunks: oversized,
          contentLength: size,
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([413, 413, 413, 413, 413]);
      expect(accepted).toEqual([]);
    });

    it('is answered 413 when it arrives chunked without a length, every time', async () => {
      const { url } = await start();
      const statuses: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        const answer = await rawRequest(url, {
          headers: { 'x-github-event': 'issue_comment' },
          chunks: oversized,
        });
        statuses.push(answer.status);
        expect(JSON.parse(answer.body)).toEqual({
          error: `the delivery is over ${maxWebhookBytes} bytes`,
        });
      }
      expect(statuses).toEqual([413, 413, 413, 413, 413]);
    });

    it('leaves the ingress serving the next delivery', async () => {
      const { url } = await start();
      await rawRequest(url, { chunks: oversized }).catch(() => undefined);
      const delivery = signDelivery(secret, payload(), { event: 'issue_comment' });
      expect((await postDelivery(url, delivery)).status).toBe(202);
      expect(accepted).toHaveLength(1);
    });
  });

  it('accepts a body just under the limit', async () => {
    const { url } = await start();
    const padded = { ...payload(), padding: 'x'.repeat(maxWebhookBytes - 100_000) };
    const answer = await postDelivery(
      url,
      signDelivery(secret, padded, { event: 'issue_comment' }),
    );
    expect(answer.status).toBe(202);
    expect(accepted).toHaveLength(1);
  });

  it('without a secret accepts deliveries with no signature, or any signature', async () => {
    const { url } = await start({ secret: '' });
    const signed = signDelivery('whatever', payload(), {
      event: 'issue_comment',
      deliveryId: 'u-1',
    });
    const { 'x-hub-signature-256': _dropped, ...unsignedHeaders } = signed.headers;
    expect(
      (await rawRequest(url, { headers: unsignedHeaders, chunks: [signed.body] })).status,
    ).toBe(202);
    expect((await postDelivery(url, signed)).status).toBe(202);
    expect(accepted.map((comment) => comment.deliveryId)).toEqual(['u-1', 'u-1']);
  });

  it('answers 500 when the comment cannot be recorded, so GitHub can redeliver it', async () => {
    const { url, log } = await start({
      accept: async () => {
        throw new Error('disk full');
      },
    });
    const answer = await postDelivery(
      url,
      signDelivery(secret, payload(), { event: 'issue_comment' }),
    );
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'the delivery could not be recorded; redeliver it',
    });
    expect(log.lines.some((line) => line['event'] === 'github.webhook_failed')).toBe(true);
  });
});
