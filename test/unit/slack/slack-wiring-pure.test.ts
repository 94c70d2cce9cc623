import { describe, expect, it } from 'vitest';
import { slackRetryDelay, slackErrorFacts } from '../../../src/slack/slack-retry-delay.js';
import { inboxMessageOfBody, toInboxMessage } from '../../../src/slack/to-inbox-message.js';
import { dedupeIds, isSlackInboxMessage } from '../../../src/slack/slack-inbox-message.js';
import { bindingKey } from '../../../src/slack/thread-bindings.js';
import { decideSlack } from '../../../src/slack/decide-slack.js';
import { createChannelPacer } from '../../../src/slack/create-channel-pacer.js';
import { callSlack } from '../../../src/slack/call-slack.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import type { Config } from '../../../src/config/types.js';

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

describe('callSlack', () => {
  it('retries a rate limit after Retry-After and gives up on a permanent error, naming it', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await callSlack(
      'chat.postMessage',
      async () => {
        calls += 1;
        if (calls === 1)
          throw Object.assign(new Error('429'), {
            code: 'slack_webapi_rate_limited_error',
            retryAfter: 2,
          });
        return 'ok';
      },
      { logger: silentLogger(), sleep: async (ms) => waits.push(ms) },
    );
    expect(result).toBe('ok');
    expect(waits).toEqual([2000]);
    await expect(
      callSlack(
        'reactions.add',
        async () => {
          throw Object.assign(new Error('x'), {
            code: 'slack_webapi_platform_error',
            data: { error: 'channel_not_found' },
          });
        },
        { logger: silentLogger(), sleep: async () => undefined },
      ),
    ).rejects.toMatchObject({
      code: 'slack_failed',
      message: expect.stringContaining('channel_not_found'),
    });
  });
});

describe('toInboxMessage', () => {
  const base = {
    type: 'message',
    channel: 'C1',
    user: 'U1',
    text: 'hi',
    ts: '2.0',
    thread_ts: '1.0',
  };
  it.each([
    ['a thread reply', base, true],
    ['an app mention in a thread', { ...base, type: 'app_mention' }, true],
    ['a broadcast thread reply', { ...base, subtype: 'thread_broadcast' }, true],
    ['a top-level message', { ...base, thread_ts: undefined }, false],
    ['a thread parent', { ...base, thread_ts: '2.0' }, false],
    ['a bot message', { ...base, bot_id: 'B1' }, false],
    ['an edit', { ...base, subtype: 'message_changed' }, false],
    ['a deletion', { ...base, subtype: 'message_deleted' }, false],
    ['no user', { ...base, user: undefined }, false],
    ['a reaction event', { ...base, type: 'reaction_added' }, false],
  ])('%s → %s', (_label, event, accepted) => {
    const message = toInboxMessage(event as Record<string, unknown>, 'Ev1', 5);
    expect(message !== undefined).toBe(accepted);
    if (message) expect(isSlackInboxMessage(message)).toBe(true);
  });

  it.each([
    ['an event callback', { type: 'event_callback', event_id: 'Ev1', event: base }, true],
    ['no event id', { type: 'event_callback', event: base }, false],
    ['another envelope type', { type: 'url_verification', event_id: 'Ev1', event: base }, false],
    [
      'an event that is not an object',
      { type: 'event_callback', event_id: 'Ev1', event: [] },
      false,
    ],
  ])('an Events API body: %s → %s', (_label, body, accepted) => {
    const message = inboxMessageOfBody(body as Record<string, unknown>, 5);
    expect(message !== undefined).toBe(accepted);
    if (message) expect(message).toMatchObject({ eventId: 'Ev1', ts: '2.0', threadTs: '1.0' });
  });

  it('a message and its app_mention twin share a dedupe id; a retry shares the event id', () => {
    const message = { eventId: 'Ev1', channel: 'C1', ts: '2.0' };
    const twin = { eventId: 'Ev2', channel: 'C1', ts: '2.0' };
    expect(dedupeIds(message)[1]).toBe(dedupeIds(twin)[1]);
    expect(dedupeIds(message)[0]).not.toBe(dedupeIds(twin)[0]);
  });

  it('binding keys are safe file names that keep channel and ts apart', () => {
    expect(bindingKey('C0123ABC', '1700000000.000100')).toBe('c0123abc-1700000000.000100');
    expect(bindingKey('C1', '../../x')).toBe('c1-....');
  });
});

describe('decideSlack', () => {
  const config = (mode: 'socket' | 'http', enabled = true) =>
    ({ slack: { enabled, mode } }) as unknown as Config;
  it.each([
    [config('socket', false), { SLACK_BOT_TOKEN: 'x' }, /slack.enabled is false/],
    [config('socket'), {}, /set SLACK_BOT_TOKEN/],
    [config('socket'), { SLACK_BOT_TOKEN: 'x' }, /SLACK_APP_TOKEN/],
    [config('http'), { SLACK_BOT_TOKEN: 'x' }, /SLACK_SIGNING_SECRET/],
  ])('off: %#', (cfg, env, reason) => {
    const decision = decideSlack(cfg, env);
    expect(decision.on).toBe(false);
    if (!decision.on) expect(decision.reason).toMatch(reason);
  });
  it('on with the credentials its mode needs, and SLACK_API_URL', () => {
    expect(
      decideSlack(config('socket'), {
        SLACK_BOT_TOKEN: 'b',
        SLACK_APP_TOKEN: 'a',
        SLACK_API_URL: 'http://x/api/',
      }),
    ).toEqual({
      on: true,
      credentials: { botToken: 'b', appToken: 'a', apiUrl: 'http://x/api/' },
    });
    expect(
      decideSlack(config('http'), { SLACK_BOT_TOKEN: 'b', SLACK_SIGNING_SECRET: 's' }),
    ).toEqual({
      on: true,
      credentials: { botToken: 'b', signingSecret: 's' },
    });
  });
});

describe('createChannelPacer', () => {
  it('spaces posts to one channel and leaves other channels alone', async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const pacer = createChannelPacer({
      intervalMs: 1000,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    });
    const order: string[] = [];
    await Promise.all([
      pacer.run('C1', async () => order.push('a1')),
      pacer.run('C1', async () => order.push('a2')),
      pacer.run('C2', async () => order.push('b1')),
    ]);
    expect(order).toEqual(['a1', 'b1', 'a2']);
    expect(sleeps).toEqual([1000]);
  });
});
