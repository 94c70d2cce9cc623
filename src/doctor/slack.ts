// Slack (docs/design.md §16): probe the tokens with auth.test and apps.connections.open, then check
// the answers, the scopes and the token or secret the mode needs.
import type { Config } from '../config/types.js';
import { buildSlackManifest } from '../slack/build-slack-manifest.js';
import { probeWeb, type SurfaceDeps, bodyField, slackOk, type WebProbe } from './web-probe.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

const slackDefaultApi = 'https://slack.com/api/';

/** auth.test and apps.connections.open, each with the one token Slack wants for it. */
export async function gatherSlackFacts(config: Config, deps: SurfaceDeps): Promise<SlackFacts> {
  const { env } = deps;
  const apiUrl = withSlash(env['SLACK_API_URL'] || slackDefaultApi);
  const botToken = env['SLACK_BOT_TOKEN'] ?? '';
  const appToken = env['SLACK_APP_TOKEN'] ?? '';
  const call = (method: string, token: string) =>
    probeWeb(
      {
        method: 'POST',
        url: `${apiUrl}${method}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: '',
      },
      deps.fetch ? { fetch: deps.fetch } : {},
    );
  const active = config.slack.enabled && botToken !== '';
  const socket = active && config.slack.mode === 'socket' && appToken !== '';
  const [authTest, connectionsOpen] = await Promise.all([
    active ? call('auth.test', botToken) : undefined,
    socket ? call('apps.connections.open', appToken) : undefined,
  ]);
  return {
    enabled: config.slack.enabled,
    mode: config.slack.mode,
    apiUrl,
    hasBotToken: botToken !== '',
    hasAppToken: appToken !== '',
    hasSigningSecret: (env['SLACK_SIGNING_SECRET'] ?? '') !== '',
    wantedScopes: buildSlackManifest(config).oauth_config.scopes.bot,
    ...(authTest ? { authTest } : {}),
    ...(connectionsOpen ? { connectionsOpen } : {}),
  };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

export interface SlackFacts {
  readonly enabled: boolean;
  readonly mode: 'socket' | 'http';
  readonly apiUrl: string;
  readonly hasBotToken: boolean;
  readonly hasAppToken: boolean;
  readonly hasSigningSecret: boolean;
  /** The bot scopes the manifest (`the-loop manifest`) asks for. */
  readonly wantedScopes: readonly string[];
  /** `auth.test` with the bot token; absent when there is no token to test. */
  readonly authTest?: WebProbe;
  /** `apps.connections.open` with the app token (Socket Mode only). */
  readonly connectionsOpen?: WebProbe;
}

const createApp =
  'create the Slack app from `the-loop manifest` (api.slack.com/apps → From a manifest), install it';

/** Slack's lines: the bot token, its scopes, and the token or secret the mode needs. */
export function checkSlack(facts: SlackFacts): DoctorCheck[] {
  if (!facts.enabled) {
    return [
      warn(
        'slack',
        'Slack is off (slack.enabled is false)',
        'set slack.enabled: true to use Slack',
      ),
    ];
  }
  if (!facts.hasBotToken || facts.authTest === undefined) {
    return [
      warn(
        'slack',
        'Slack is off: SLACK_BOT_TOKEN is not set',
        `${createApp}, then set SLACK_BOT_TOKEN (xoxb-…)` +
          (facts.mode === 'socket' ? ' and SLACK_APP_TOKEN (xapp-…)' : ' and SLACK_SIGNING_SECRET'),
      ),
    ];
  }
  const token = checkBotToken(facts.authTest, facts.apiUrl);
  const scopes = token.status === 'ok' ? [checkScopes(facts.authTest, facts.wantedScopes)] : [];
  return [token, ...scopes, facts.mode === 'socket' ? checkSocketMode(facts) : checkSigning(facts)];
}

function unreachable(id: string, apiUrl: string, error: string): DoctorCheck {
  return fail(
    id,
    `cannot reach Slack at ${apiUrl}: ${error}`,
    'check the network (and SLACK_API_URL, when it is set)',
  );
}

function checkBotToken(probe: WebProbe, apiUrl: string): DoctorCheck {
  if (probe.kind === 'unreachable') return unreachable('slack-token', apiUrl, probe.error);
  if (slackOk(probe)) {
    const who = bodyField(probe, 'user') ?? 'the bot';
    const team = bodyField(probe, 'team') ?? 'its workspace';
    return ok('slack-token', `SLACK_BOT_TOKEN works: ${who} in ${team}`);
  }
  const error = bodyField(probe, 'error') ?? `HTTP ${probe.status}`;
  return fail(
    'slack-token',
    `Slack refuses SLACK_BOT_TOKEN (auth.test: ${error})`,
    "set SLACK_BOT_TOKEN to the app's Bot User OAuth Token (xoxb-…, on OAuth & Permissions)",
  );
}

/** Granted scopes come from the `x-oauth-scopes` header Slack puts on every answer (docs/design.md §17). */
function checkScopes(probe: WebProbe, wanted: readonly string[]): DoctorCheck {
  const granted = probe.kind === 'answered' ? probe.scopes : undefined;
  if (granted === undefined) {
    return warn(
      'slack-scopes',
      'Slack did not say which scopes the bot token has (no x-oauth-scopes header)',
      `compare the app's scopes with \`the-loop manifest\` by hand`,
    );
  }
  const missing = wanted.filter((scope) => !granted.includes(scope));
  if (missing.length > 0) {
    return fail(
      'slack-scopes',
      `the bot token lacks ${missing.length} scope(s) the-loop needs: ${missing.join(', ')}`,
      'add them under OAuth & Permissions → Bot Token Scopes (or update the app from ' +
        '`the-loop manifest`), then reinstall the app to the workspace',
    );
  }
  return ok('slack-scopes', `the bot token has all ${wanted.length} scopes the manifest asks for`);
}

function checkSocketMode(facts: SlackFacts): DoctorCheck {
  const probe = facts.connectionsOpen;
  if (!facts.hasAppToken || probe === undefined) {
    return fail(
      'slack-socket-mode',
      'Socket Mode needs SLACK_APP_TOKEN, which is not set: Slack stays off',
      'make an app-level token with scope connections:write (Basic Information → App-Level ' +
        'Tokens) and set SLACK_APP_TOKEN (xapp-…), or set slack.mode: http',
    );
  }
  if (probe.kind === 'unreachable')
    return unreachable('slack-socket-mode', facts.apiUrl, probe.error);
  if (slackOk(probe))
    return ok('slack-socket-mode', 'SLACK_APP_TOKEN opens Socket Mode connections');
  const error = bodyField(probe, 'error') ?? `HTTP ${probe.status}`;
  return fail(
    'slack-socket-mode',
    `Slack refuses SLACK_APP_TOKEN (apps.connections.open: ${error})`,
    'set SLACK_APP_TOKEN to an app-level token (xapp-…) with scope connections:write, and turn ' +
      'Socket Mode on in the app settings',
  );
}

function checkSigning(facts: SlackFacts): DoctorCheck {
  if (facts.hasSigningSecret) return ok('slack-signing-secret', 'SLACK_SIGNING_SECRET is set');
  return fail(
    'slack-signing-secret',
    'HTTP mode needs SLACK_SIGNING_SECRET, which is not set: Slack stays off',
    "set SLACK_SIGNING_SECRET to the app's Signing Secret (Basic Information → App Credentials)",
  );
}
