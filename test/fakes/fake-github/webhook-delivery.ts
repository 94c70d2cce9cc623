import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import type { ExampleEvent, ExamplePayload } from './with-comment.js';

export {
  withComment,
  type CommentChange,
  type ExampleEvent,
  type ExamplePayload,
} from './with-comment.js';

export interface SignedDelivery {
  readonly body: string;
  readonly headers: {
    readonly 'x-github-event': string;
    readonly 'x-github-delivery': string;
    readonly 'x-hub-signature-256': string;
    readonly 'content-type': 'application/json';
    readonly 'user-agent': 'GitHub-Hookshot/fake';
  };
}

/**
 * The first example payload for `event` with `action`, from `@octokit/webhooks-examples` (its main
 * file is the api.github.com list of event definitions, each with its examples). The file is
 * about 4 MB: load a payload once and vary it with `withComment` rather than reloading per case.
 */
export function loadExamplePayload<E extends ExampleEvent>(
  event: E,
  action: string,
): ExamplePayload<E> {
  const file = createRequire(import.meta.url).resolve('@octokit/webhooks-examples');
  const definitions = JSON.parse(readFileSync(file, 'utf8')) as WebhookDefinition[];
  const definition = definitions.find((d): d is WebhookDefinition<E> => d.name === event);
  const example = definition?.examples.find(
    (candidate) => (candidate as { action?: unknown }).action === action,
  );
  if (example === undefined) {
    throw new Error(`@octokit/webhooks-examples has no ${event}.${action} example`);
  }
  return structuredClone(example);
}

/**
 * The body and headers of a delivery exactly as GitHub sends it: the JSON text, signed with
 * HMAC-SHA256 of that text under the webhook secret. A string payload is sent as it is, so tests
 * can sign malformed JSON too.
 */
export function signDelivery(
  secret: string,
  payload: object | string,
  options: { readonly event: string; readonly deliveryId?: string },
): SignedDelivery {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const digest = createHmac('sha256', secret).update(body).digest('hex');
  return {
    body,
    headers: {
      'x-github-event': options.event,
      'x-github-delivery': options.deliveryId ?? randomUUID(),
      'x-hub-signature-256': `sha256=${digest}`,
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake',
    },
  };
}

/** POSTs a signed delivery and reads the whole answer, so no connection is left half-read. */
export async function postDelivery(
  url: string,
  delivery: SignedDelivery,
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  });
  return { status: response.status, body: await response.text() };
}
