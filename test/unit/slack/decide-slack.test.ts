import { describe, expect, it } from 'vitest';
import { decideSlack } from '../../../src/slack/decide-slack.js';
import type { Config } from '../../../src/config/types.js';

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
