import { describe, expect, it } from 'vitest';
import {
  githubErrorFacts,
  githubRetryDelay,
  type GithubErrorFacts,
} from '../../../src/github/github-retry-delay.js';

const now = Date.parse('2024-05-01T10:00:00Z');
const inSeconds = (seconds: number) => String(now / 1000 + seconds);

describe('githubRetryDelay', () => {
  it.each<[string, GithubErrorFacts, number, number, number | undefined]>([
    ['a 502, first attempt', { status: 502 }, 1, 4, 1_000],
    ['a 502, second attempt', { status: 502 }, 2, 4, 2_000],
    ['a 502, third attempt', { status: 502 }, 3, 4, 4_000],
    ['a 500', { status: 500 }, 1, 4, 1_000],
    ['a 503', { status: 503 }, 2, 4, 2_000],
    ['no answer at all (connection refused)', {}, 1, 4, 1_000],
    ['backoff is capped at 30 s', { status: 502 }, 7, 10, 30_000],
    ['the last attempt is not retried', { status: 502 }, 4, 4, undefined],
    ['one attempt allowed', { status: 502 }, 1, 1, undefined],
    [
      'the primary rate limit waits for its reset',
      { status: 403, rateLimitRemaining: '0', rateLimitReset: inSeconds(10) },
      1,
      4,
      10_000,
    ],
    [
      'a reset already past waits a second',
      { status: 403, rateLimitRemaining: '0', rateLimitReset: inSeconds(-5) },
      1,
      4,
      1_000,
    ],
    [
      'a reset an hour away waits at most a minute',
      { status: 403, rateLimitRemaining: '0', rateLimitReset: inSeconds(3_600) },
      1,
      4,
      60_000,
    ],
    [
      'a rate limit on the last attempt is not retried',
      { status: 403, rateLimitRemaining: '0', rateLimitReset: inSeconds(10) },
      4,
      4,
      undefined,
    ],
    ['the secondary limit waits Retry-After', { status: 403, retryAfter: '30' }, 1, 4, 30_000],
    ['a Retry-After of 0 waits a second', { status: 403, retryAfter: '0' }, 1, 4, 1_000],
    ['a long Retry-After waits at most a minute', { status: 403, retryAfter: '600' }, 1, 4, 60_000],
    [
      'Retry-After wins over the primary headers',
      { status: 403, retryAfter: '7', rateLimitRemaining: '0', rateLimitReset: inSeconds(40) },
      1,
      4,
      7_000,
    ],
    ['a 429 with Retry-After', { status: 429, retryAfter: '5' }, 1, 4, 5_000],
    ['a bare 429 backs off', { status: 429 }, 2, 4, 2_000],
    ['a 403 without rate-limit headers (forbidden)', { status: 403 }, 1, 4, undefined],
    [
      'a 403 with requests left (forbidden, not limited)',
      { status: 403, rateLimitRemaining: '12', rateLimitReset: inSeconds(10) },
      1,
      4,
      undefined,
    ],
    ['a 404', { status: 404 }, 1, 4, undefined],
    ['a 422', { status: 422 }, 1, 4, undefined],
    ['a 401 (bad credentials)', { status: 401 }, 1, 4, undefined],
    ['a 304 (not modified)', { status: 304 }, 1, 4, undefined],
  ])('%s', (_label, facts, attempt, maxAttempts, expected) => {
    expect(githubRetryDelay(facts, attempt, maxAttempts, now)).toBe(expected);
  });

  it('reads a Retry-After given as an HTTP date (RFC 9110) as the time until that date', () => {
    const date = new Date(now + 20_000).toUTCString();
    expect(githubRetryDelay({ status: 429, retryAfter: date }, 1, 4, now)).toBe(20_000);
  });

  it.each(['soon', '', '-1', '1e9', ' 5 '])(
    'answers a delay from 1 s to 60 s for any Retry-After text (%j)',
    (retryAfter) => {
      const wait = githubRetryDelay({ status: 403, retryAfter }, 1, 4, now);
      const inRange =
        wait !== undefined && Number.isFinite(wait) && wait >= 1_000 && wait <= 60_000;
      expect({ wait, inRange }).toEqual({ wait, inRange: true });
    },
  );
});

describe('githubErrorFacts', () => {
  it('reads the status and rate-limit headers of an Octokit RequestError', () => {
    const error = Object.assign(new Error('API rate limit exceeded'), {
      status: 403,
      response: {
        status: 403,
        url: 'https://api.github.com/repos/octo/repo/issues/comments',
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': '1714557660',
          'x-ratelimit-limit': '5000',
        },
        data: { message: 'API rate limit exceeded' },
      },
    });
    expect(githubErrorFacts(error)).toEqual({
      status: 403,
      rateLimitRemaining: '0',
      rateLimitReset: '1714557660',
    });
  });

  it('reads Retry-After, and header values given as numbers', () => {
    const error = { status: 429, response: { headers: { 'retry-after': 30 } } };
    expect(githubErrorFacts(error)).toEqual({ status: 429, retryAfter: '30' });
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'boom'],
    ['a number', 502],
    ['an error without a status (a network failure)', new Error('ECONNREFUSED')],
    ['a status that is a string', { status: '502' }],
  ])('knows nothing from %s', (_label, error) => {
    expect(githubErrorFacts(error)).toEqual({});
  });

  it('ignores headers that are neither strings nor numbers', () => {
    const error = { status: 403, response: { headers: { 'retry-after': ['5'], etag: 'x' } } };
    expect(githubErrorFacts(error)).toEqual({ status: 403 });
  });
});
