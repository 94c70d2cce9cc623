import type { Config } from '../config/types.js';
import { decideGithub } from '../github/decide-github.js';
import { buildSlackManifest } from '../slack/build-slack-manifest.js';
import { isAppToken, type GithubFacts, type WebhookFacts } from './check-github.js';
import type { SlackFacts } from './check-slack.js';
import { probeWeb, type FetchLike } from './probe-web.js';

const slackDefaultApi = 'https://slack.com/api/';
const githubDefaultApi = 'https://api.github.com';

export interface SurfaceDeps {
  readonly env: NodeJS.ProcessEnv;
  readonly fetch?: FetchLike;
  readonly userAgent: string;
}

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

/** GET /user, then GET /repos/{owner}/{repo} for each configured repository once the token works. */
export async function gatherGithubFacts(config: Config, deps: SurfaceDeps): Promise<GithubFacts> {
  const { env } = deps;
  const apiUrl = (env['GITHUB_API_URL'] || githubDefaultApi).replace(/\/+$/, '');
  const token = env['GITHUB_TOKEN'] ?? '';
  const webhook = webhookFacts(config, env);
  const repos = config.github.repos.map((entry) => entry.repo);
  if (token === '')
    return { apiUrl, hasToken: false, repos: repos.map((repo) => ({ repo })), webhook };
  const get = (apiPath: string) =>
    probeWeb(
      {
        method: 'GET',
        url: `${apiUrl}${apiPath}`,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': deps.userAgent,
        },
      },
      deps.fetch ? { fetch: deps.fetch } : {},
    );
  const user = await get('/user');
  const works = (user.kind === 'answered' && user.status === 200) || isAppToken(user);
  const probes = await Promise.all(
    repos.map(async (repo) => ({ repo, ...(works ? { probe: await get(`/repos/${repo}`) } : {}) })),
  );
  return { apiUrl, hasToken: true, user, repos: probes, webhook };
}

function webhookFacts(config: Config, env: NodeJS.ProcessEnv): WebhookFacts {
  const decision = decideGithub(config, env);
  const secret = decision.on ? decision.plan.webhookSecret : undefined;
  return {
    state: secret === undefined ? 'off' : secret === '' ? 'unsigned' : 'signed',
    secretLength: secret?.length ?? 0,
    url: `http://${config.http.host}:${config.http.port}${config.github.webhook.path}`,
    poll: config.github.poll.enabled,
    pollSeconds: config.github.poll.intervalSeconds,
  };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
