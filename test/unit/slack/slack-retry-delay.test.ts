import { describe, expect, it } from 'vitest';
import { slackRetryDelay, slackErrorFacts } from '../../../src/slack/slack-retry-delay.js';

describe('slackRetryDelay', () => {
  it.each([
    [{ code: 'slack_webapi_rate_limited_error', retryAfter: 3 }, 1, 3000],
    [{ code: 'slack_webapi_rate_limited_error' }, 1, 1000],
    [{ code: 'slack_webapi_platform_error', platformError: 'ratelimited' }, 1, 1000],
    [{ code: 'slack_webapi_platform_error', platformError: 'internal_error' }, 3, 4000],
    [{ code: 'slack_webapi_platform_error', platformError: 'channel_not_found' }, 1, undefined],
    [{ code: 'slack_webapi_request_error' }, 2, 2000],
    [{ code: 'slack_webapi_http_error', statusCode: 503 }, 1, 1000],
    [{ code: 'slack_webapi_http_error', statusCode: 400 }, 1, undefined],
    [{}, 1, undefined],
    [{ code: 'slack_webapi_rate_limited_error', retryAfter: 1 }, 6, undefined],
  ])('%j on attempt %d → %s', (facts, attempt, expected) => {
    expect(slackRetryDelay(facts, attempt, 6)).toBe(expected);
  });

  it('reads the facts from WebClient-shaped errors', () => {
    expect(slackErrorFacts({ code: 'slack_webapi_platform_error', data: { error: 'x' } })).toEqual({
      code: 'slack_webapi_platform_error',
      platformError: 'x',
    });
    expect(slackErrorFacts('nope')).toEqual({});
  });
});
