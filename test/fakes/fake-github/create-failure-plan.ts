import type { FakeReply } from './create-github-routes.js';
import type { RateSnapshot } from './create-rate-window.js';

/**
 * An injected failure, in the shapes GitHub really answers with: a bare server error (502 by
 * default), any status with a message, the primary rate limit (403, `x-ratelimit-remaining: 0`, a
 * reset time) or a secondary rate limit (403 with `retry-after`).
 */
export type FakeGithubFailure =
  | { readonly status: number; readonly message?: string }
  | { readonly rateLimit: true; readonly resetInSeconds?: number }
  | { readonly secondaryRateLimit: true; readonly retryAfterSeconds?: number };

/** Which requests a failure applies to; a missing field matches every request. */
export interface FailureMatcher {
  readonly method?: string;
  readonly path?: RegExp;
}

const rateDocs =
  'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits';

export function createFailurePlan() {
  const planned: { matcher: FailureMatcher; failure: FakeGithubFailure }[] = [];
  const fits = (matcher: FailureMatcher, method: string, path: string) => {
    if (matcher.method !== undefined && matcher.method.toUpperCase() !== method) return false;
    if (matcher.path === undefined) return true;
    matcher.path.lastIndex = 0; // a /g pattern remembers where it stopped; start over each time
    return matcher.path.test(path);
  };
  return {
    failNext(matcher: FailureMatcher, failure: FakeGithubFailure, times = 1): void {
      for (let i = 0; i < times; i += 1) planned.push({ matcher, failure });
    },
    /** The first planned failure for this request, used up as it is taken. */
    take(method: string, path: string): FakeGithubFailure | undefined {
      const index = planned.findIndex(({ matcher }) => fits(matcher, method, path));
      return index === -1 ? undefined : planned.splice(index, 1)[0]?.failure;
    },
    reset(): void {
      planned.length = 0;
    },
  };
}

/** The response for a failure; `rate` is the token's window, which a primary limit empties. */
export function failureReply(
  failure: FakeGithubFailure,
  rate: RateSnapshot,
  nowMs: number,
): FakeReply {
  const nowSeconds = Math.floor(nowMs / 1000);
  if ('rateLimit' in failure) {
    const reset = nowSeconds + (failure.resetInSeconds ?? 60);
    return {
      status: 403,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': String(rate.limit),
        'x-ratelimit-reset': String(reset),
      },
      body: {
        message:
          'API rate limit exceeded for installation ID 1. If you reach out to GitHub Support for help, please include the request ID.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      },
    };
  }
  if ('secondaryRateLimit' in failure) {
    return {
      status: 403,
      headers: { 'retry-after': String(failure.retryAfterSeconds ?? 60) },
      body: {
        message:
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: rateDocs,
      },
    };
  }
  const message = failure.message ?? (failure.status >= 500 ? 'Server Error' : 'Error');
  return { status: failure.status, body: { message } };
}
