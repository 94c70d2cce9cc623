/** Slack errors worth another try: rate limits and Slack-side trouble, never our own mistakes. */
const retryablePlatformErrors = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

export interface SlackErrorFacts {
  readonly code?: string;
  /** Seconds, from a 429's Retry-After. */
  readonly retryAfter?: number;
  readonly platformError?: string;
  readonly statusCode?: number;
}

/**
 * How long to wait before trying a failed Slack call again, or undefined to give up. A 429 waits
 * exactly what Slack asked; other transient failures back off exponentially (1 s, 2 s, 4 s …).
 */
export function slackRetryDelay(
  error: SlackErrorFacts,
  attempt: number,
  maxAttempts: number,
): number | undefined {
  if (attempt >= maxAttempts) return undefined;
  if (error.code === 'slack_webapi_rate_limited_error')
    return Math.max(1, error.retryAfter ?? 1) * 1000;
  const backoff = Math.min(30_000, 1000 * 2 ** (attempt - 1));
  if (error.code === 'slack_webapi_platform_error') {
    return error.platformError && retryablePlatformErrors.has(error.platformError)
      ? backoff
      : undefined;
  }
  if (error.code === 'slack_webapi_request_error') return backoff;
  if (error.code === 'slack_webapi_http_error')
    return (error.statusCode ?? 500) >= 500 ? backoff : undefined;
  return undefined;
}

export function slackErrorFacts(error: unknown): SlackErrorFacts {
  if (typeof error !== 'object' || error === null) return {};
  const value = error as {
    code?: unknown;
    retryAfter?: unknown;
    data?: { error?: unknown };
    statusCode?: unknown;
  };
  return {
    ...(typeof value.code === 'string' ? { code: value.code } : {}),
    ...(typeof value.retryAfter === 'number' ? { retryAfter: value.retryAfter } : {}),
    ...(typeof value.data?.error === 'string' ? { platformError: value.data.error } : {}),
    ...(typeof value.statusCode === 'number' ? { statusCode: value.statusCode } : {}),
  };
}
