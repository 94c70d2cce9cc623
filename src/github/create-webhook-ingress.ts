import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Webhooks } from '@octokit/webhooks';
import { readBody } from '../http/read-body.js';
import type { Logger } from '../log/create-logger.js';
import { fromWebhookPayload } from './from-webhook-payload.js';
import type { GithubComment } from './github-comment.js';

/** GitHub caps deliveries at 25 MB; a comment event is far smaller, so anything this big is refused. */
export const maxWebhookBytes = 5 * 1024 * 1024;

/**
 * `POST {github.webhook.path}` (docs/design.md §7.1): the signature is verified with @octokit/webhooks
 * before the body is parsed (401), bad JSON is 400, an oversized body 413. An accepted comment is
 * recorded before the answer, which comes at once; the work happens after.
 */
export function createWebhookIngress(options: {
  /** "" accepts unsigned deliveries (allowed on loopback only, decided by the caller). */
  readonly secret: string;
  readonly accept: (comment: GithubComment) => Promise<void>;
  readonly logger: Logger;
  readonly now?: () => number;
}): RequestListener {
  const webhooks = options.secret ? new Webhooks({ secret: options.secret }) : undefined;
  const now = options.now ?? Date.now;

  const answer = (
    response: ServerResponse,
    status: number,
    body: Record<string, unknown>,
  ): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  return (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      if (request.method !== 'POST')
        return answer(response, 405, { error: 'POST a GitHub webhook delivery here' });
      const body = await readLimited(request, maxWebhookBytes);
      if (body === undefined) {
        answer(response, 413, { error: `the delivery is over ${maxWebhookBytes} bytes` });
        // Read and drop the rest: closing a socket with unread data sends a TCP reset, which can
        // reach the sender before the 413 does.
        request.resume();
        return;
      }
      if (body === null) return answer(response, 400, { error: 'the body is not UTF-8 JSON' });
      const signature = String(request.headers['x-hub-signature-256'] ?? '');
      if (webhooks && !(signature && (await webhooks.verify(body, signature).catch(() => false)))) {
        options.logger.warn(
          { event: 'github.bad_signature' },
          'webhook delivery with a bad signature',
        );
        return answer(response, 401, { error: 'signature does not match GITHUB_WEBHOOK_SECRET' });
      }
      let payload: unknown;
      try {
        payload = JSON.parse(body);
      } catch {
        return answer(response, 400, { error: 'the body is not JSON' });
      }
      const event = String(request.headers['x-github-event'] ?? '');
      const deliveryId = String(request.headers['x-github-delivery'] ?? '');
      const comment = fromWebhookPayload(event, payload, deliveryId, now());
      if (!comment)
        return answer(response, 202, { accepted: false, reason: 'not an event the-loop handles' });
      await options.accept(comment);
      return answer(response, 202, { accepted: true });
    })().catch((error: unknown) => {
      options.logger.error(
        { event: 'github.webhook_failed', err: error },
        'webhook delivery failed',
      );
      if (!response.headersSent)
        answer(response, 500, { error: 'the delivery could not be recorded; redeliver it' });
    });
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; undefined when it is over the limit, null when it is not UTF-8. */
async function readLimited(
  request: IncomingMessage,
  limit: number,
): Promise<string | null | undefined> {
  // Nothing is drained here: the caller answers 413 at once and then reads and drops the rest.
  const read = await readBody(request, { maxBytes: limit, drainBytes: 0, drainMs: 0 });
  if (read.kind === 'too_large') return undefined;
  try {
    return utf8.decode(read.bytes);
  } catch {
    return null;
  }
}
