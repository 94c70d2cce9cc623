import type { Config } from '../config/types.js';
import type { SlackCredentials } from './create-slack-surface.js';

export type SlackDecision =
  | { readonly on: true; readonly credentials: SlackCredentials }
  | { readonly on: false; readonly reason: string };

/** Slack is on when the config allows it and the credentials its mode needs are set (docs/design.md §3.2). */
export function decideSlack(config: Config, env: NodeJS.ProcessEnv): SlackDecision {
  if (!config.slack.enabled)
    return { on: false, reason: 'slack: off (slack.enabled is false in the config)' };
  const botToken = env['SLACK_BOT_TOKEN'] ?? '';
  if (!botToken) {
    return {
      on: false,
      reason:
        'slack: off — set SLACK_BOT_TOKEN (and SLACK_APP_TOKEN for Socket Mode) to turn it on',
    };
  }
  const apiUrl = env['SLACK_API_URL'] ? { apiUrl: env['SLACK_API_URL'] } : {};
  if (config.slack.mode === 'socket') {
    const appToken = env['SLACK_APP_TOKEN'] ?? '';
    if (!appToken)
      return { on: false, reason: 'slack: off — Socket Mode needs SLACK_APP_TOKEN (xapp-…) too' };
    return { on: true, credentials: { botToken, appToken, ...apiUrl } };
  }
  const signingSecret = env['SLACK_SIGNING_SECRET'] ?? '';
  if (!signingSecret)
    return { on: false, reason: 'slack: off — HTTP mode needs SLACK_SIGNING_SECRET too' };
  return { on: true, credentials: { botToken, signingSecret, ...apiUrl } };
}
