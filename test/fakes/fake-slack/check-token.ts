import type { FakeSlackIdentity } from './fake-slack-identity.js';

/**
 * The error Slack gives a call made with this token, or nothing when the token fits: the app-level
 * token opens Socket Mode connections and does nothing else; the bot token does everything else.
 * A token of the wrong kind is `invalid_auth` here (Slack says `not_allowed_token_type`) because
 * the Socket Mode client gives up at once on `invalid_auth` but retries the other for minutes.
 */
export function checkToken(
  method: string,
  token: string | undefined,
  identity: FakeSlackIdentity,
): string | undefined {
  if (token === undefined || token === '') return 'not_authed';
  const wanted = method === 'apps.connections.open' ? identity.appToken : identity.botToken;
  return token === wanted ? undefined : 'invalid_auth';
}
