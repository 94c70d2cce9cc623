import { describe, expect, it } from 'vitest';
import { callSlack } from '../../../src/slack/call-slack.js';
import { silentLogger } from '../../../src/log/create-logger.js';

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
