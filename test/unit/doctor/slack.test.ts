import { describe, expect, it } from 'vitest';
import { checkSlack, type SlackFacts } from '../../../src/doctor/slack.js';

import { answered, down, statusOf } from '../../helpers/doctor-checks.js';

const slackBase: SlackFacts = {
  enabled: true,
  mode: 'socket',
  apiUrl: 'https://slack.com/api/',
  hasBotToken: true,
  hasAppToken: true,
  hasSigningSecret: false,
  wantedScopes: ['chat:write', 'commands'],
  authTest: answered(200, { ok: true, user: 'loop', team: 'Acme' }, ['chat:write', 'commands']),
  connectionsOpen: answered(200, { ok: true, url: 'wss://x' }),
};

describe('checkSlack', () => {
  it.each([
    ['everything right', {}, ['ok slack-token', 'ok slack-scopes', 'ok slack-socket-mode']],
    ['Slack disabled', { enabled: false }, ['warn slack']],
    ['no bot token', { hasBotToken: false, authTest: undefined }, ['warn slack']],
    [
      'a refused bot token',
      { authTest: answered(200, { ok: false, error: 'invalid_auth' }) },
      ['fail slack-token', 'ok slack-socket-mode'],
    ],
    [
      'Slack unreachable',
      { authTest: down, connectionsOpen: down },
      ['fail slack-token', 'fail slack-socket-mode'],
    ],
    [
      'a missing scope',
      { authTest: answered(200, { ok: true }, ['chat:write']) },
      ['ok slack-token', 'fail slack-scopes', 'ok slack-socket-mode'],
    ],
    [
      'no scopes header',
      { authTest: answered(200, { ok: true }) },
      ['ok slack-token', 'warn slack-scopes', 'ok slack-socket-mode'],
    ],
    [
      'no app token in socket mode',
      { hasAppToken: false, connectionsOpen: undefined },
      ['ok slack-token', 'ok slack-scopes', 'fail slack-socket-mode'],
    ],
    [
      'a refused app token',
      { connectionsOpen: answered(200, { ok: false, error: 'invalid_auth' }) },
      ['ok slack-token', 'ok slack-scopes', 'fail slack-socket-mode'],
    ],
    [
      'HTTP mode without a signing secret',
      { mode: 'http' as const, connectionsOpen: undefined },
      ['ok slack-token', 'ok slack-scopes', 'fail slack-signing-secret'],
    ],
    [
      'HTTP mode with a signing secret',
      { mode: 'http' as const, hasSigningSecret: true, connectionsOpen: undefined },
      ['ok slack-token', 'ok slack-scopes', 'ok slack-signing-secret'],
    ],
  ])('%s', (_, change, expected) => {
    expect(statusOf(checkSlack({ ...slackBase, ...change }))).toEqual(expected);
  });

  it('names the missing scopes and the error Slack gave', () => {
    const scopes = checkSlack({
      ...slackBase,
      authTest: answered(200, { ok: true }, ['commands']),
    });
    expect(scopes[1]?.message).toContain('chat:write');
    expect(scopes[1]?.message).not.toContain('commands');
    const refused = checkSlack({
      ...slackBase,
      authTest: answered(200, { ok: false, error: 'token_revoked' }),
    });
    expect(refused[0]?.message).toContain('token_revoked');
  });
});
