export interface GithubErrorFacts {
  readonly status?: number;
  readonly rateLimitRemaining?: string;
  readonly rateLimitReset?: string;
  readonly retryAfter?: string;
}

/**
 * How long to wait before retrying a failed GitHub call, or undefined to give up: server errors
 * back off exponentially, a rate limit waits for its reset or Retry-After (capped, so one long
 * window cannot stall the daemon), anything else — a 404, a 422 — is not retried.
 */
export function githubRetryDelay(
  facts: GithubErrorFacts,
  attempt: number,
  maxAttempts: number,
  nowMs: number,
): number | undefined {
  if (attempt >= maxAttempts) return undefined;
  const backoff = Math.min(30_000, 1000 * 2 ** (attempt - 1));
  const status = facts.status ?? 0;
  if (status >= 500 || status === 0) return backoff;
  if (status === 429 || status === 403) {
    if (facts.retryAfter !== undefined)
      return Math.min(60_000, Math.max(1000, retryAfterMs(facts.retryAfter, nowMs) ?? backoff));
    if (facts.rateLimitRemaining === '0' && facts.rateLimitReset !== undefined) {
      return Math.min(60_000, Math.max(1000, Number(facts.rateLimitReset) * 1000 - nowMs));
    }
    return status === 429 ? backoff : undefined;
  }
  return undefined;
}

/** Retry-After is delay-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
function retryAfterMs(value: string, nowMs: number): number | undefined {
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - nowMs;
}

export function githubErrorFacts(error: unknown): GithubErrorFacts {
  if (typeof error !== 'object' || error === null) return {};
  const value = error as { status?: unknown; response?: { headers?: Record<string, unknown> } };
  const headers = value.response?.headers ?? {};
  const header = (name: string): string | undefined =>
    typeof headers[name] === 'string' || typeof headers[name] === 'number'
      ? String(headers[name])
      : undefined;
  const remaining = header('x-ratelimit-remaining');
  const reset = header('x-ratelimit-reset');
  const retryAfter = header('retry-after');
  return {
    ...(typeof value.status === 'number' ? { status: value.status } : {}),
    ...(remaining !== undefined ? { rateLimitRemaining: remaining } : {}),
    ...(reset !== undefined ? { rateLimitReset: reset } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}
