import { createHmac } from 'node:crypto';

export interface SlackRequestHeaders {
  readonly 'x-slack-signature': string;
  readonly 'x-slack-request-timestamp': string;
  readonly 'content-type': string;
}

/**
 * The headers Slack sends with an HTTP-mode request: `v0=` + HMAC-SHA256 of `v0:<ts>:<body>` keyed
 * with the signing secret. Pass an old `timestampSeconds` to model a replayed (stale) request.
 */
export function signSlackRequest(
  signingSecret: string,
  rawBody: string,
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): SlackRequestHeaders {
  const timestamp = String(timestampSeconds);
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${rawBody}`)
    .digest('hex');
  const isJson = rawBody.trimStart().startsWith('{');
  return {
    'x-slack-signature': `v0=${digest}`,
    'x-slack-request-timestamp': timestamp,
    'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded',
  };
}
