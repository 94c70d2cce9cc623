// GitHub (docs/design.md §16): probe the token and each configured repository, then check the
// answers and the webhook settings.
import type { Config } from '../config/types.js';
import { decideGithub } from '../github/decide-github.js';
import { probeWeb, type SurfaceDeps, bodyField, type WebProbe } from './web-probe.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

const githubDefaultApi = 'https://api.github.com';

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

export interface GithubFacts {
  readonly apiUrl: string;
  readonly hasToken: boolean;
  /** `GET /user`; absent without a token. */
  readonly user?: WebProbe;
  /** `GET /repos/{owner}/{repo}` for each configured repository (probed once the token works). */
  readonly repos: readonly { readonly repo: string; readonly probe?: WebProbe }[];
  readonly webhook: WebhookFacts;
}

export interface WebhookFacts {
  /** signed: GITHUB_WEBHOOK_SECRET is set; unsigned: allowUnsigned on loopback; off: neither. */
  readonly state: 'signed' | 'unsigned' | 'off';
  readonly secretLength: number;
  /** Where GitHub should deliver, e.g. `http://127.0.0.1:3000/github/webhook`. */
  readonly url: string;
  readonly poll: boolean;
  readonly pollSeconds: number;
}

/** GitHub's minimum is any length; a guessable secret makes the signature check worthless. */
const shortSecret = 20;

export function checkGithub(facts: GithubFacts): DoctorCheck[] {
  if (!facts.hasToken || facts.user === undefined) {
    return [
      warn(
        'github',
        'GitHub is off: GITHUB_TOKEN is not set',
        'set GITHUB_TOKEN to a token that can read and write issues and pull requests of github.repos',
      ),
    ];
  }
  const token = checkToken(facts.user, facts.apiUrl);
  if (token.status === 'fail') return [token];
  const repos =
    facts.repos.length === 0
      ? [
          warn(
            'github-repos',
            'github.repos is empty: no work item has a checkout to run in',
            'add `github.repos: [{ repo: owner/name, path: ../checkout }]` to the config',
          ),
        ]
      : facts.repos.map(({ repo, probe }) => checkRepo(repo, probe, facts.apiUrl));
  return [token, ...repos, checkWebhook(facts.webhook)];
}

function unreachable(id: string, apiUrl: string, error: string): DoctorCheck {
  return fail(
    id,
    `cannot reach GitHub at ${apiUrl}: ${error}`,
    'check the network (and GITHUB_API_URL, when it is set)',
  );
}

function checkToken(probe: WebProbe, apiUrl: string): DoctorCheck {
  if (probe.kind === 'unreachable') return unreachable('github-token', apiUrl, probe.error);
  if (probe.status === 200) {
    return ok('github-token', `GITHUB_TOKEN works as ${bodyField(probe, 'login') ?? 'a user'}`);
  }
  const reason = bodyField(probe, 'message') ?? '';
  if (isAppToken(probe)) {
    return warn(
      'github-token',
      'GITHUB_TOKEN is a GitHub App installation token: GitHub answers GET /user only for users, ' +
        'so only the repositories are checked',
      'nothing to do if an app token is what you meant; its repository lines below say whether it works',
    );
  }
  return fail(
    'github-token',
    `GitHub refuses GITHUB_TOKEN (GET /user: ${probe.status}${reason ? ` ${reason}` : ''})`,
    'set GITHUB_TOKEN to a valid token (github.com → Settings → Developer settings → tokens)',
  );
}

/** An installation token is valid but may not ask who it is (403, "not accessible by integration"). */
export function isAppToken(probe: WebProbe): boolean {
  return (
    probe.kind === 'answered' &&
    probe.status === 403 &&
    /not accessible by integration/i.test(bodyField(probe, 'message') ?? '')
  );
}

function checkRepo(repo: string, probe: WebProbe | undefined, apiUrl: string): DoctorCheck {
  const id = `github-repo:${repo}`;
  if (probe === undefined) return warn(id, `${repo} was not checked`, 'run doctor again');
  if (probe.kind === 'unreachable') return unreachable(id, apiUrl, probe.error);
  if (probe.status === 200) return ok(id, `GITHUB_TOKEN reaches ${repo}`);
  const hidden = probe.status === 404 || probe.status === 403;
  return fail(
    id,
    `GITHUB_TOKEN cannot reach ${repo} (GET /repos/${repo}: ${probe.status})`,
    hidden
      ? `check the name in github.repos, and give the token access to ${repo} (a fine-grained ` +
          'token lists its repositories; issues and pull requests need read and write)'
      : 'try again later; GitHub answered with an error',
  );
}

function checkWebhook(webhook: WebhookFacts): DoctorCheck {
  if (webhook.state === 'signed') {
    if (webhook.secretLength < shortSecret) {
      return warn(
        'github-webhook',
        `GITHUB_WEBHOOK_SECRET is only ${webhook.secretLength} characters`,
        'use a long random secret (`openssl rand -hex 32`) here and in the webhook settings',
      );
    }
    return ok('github-webhook', `webhook on at ${webhook.url}, signed with GITHUB_WEBHOOK_SECRET`);
  }
  if (webhook.state === 'unsigned') {
    return warn(
      'github-webhook',
      `webhook on at ${webhook.url} without a signature check (github.webhook.allowUnsigned)`,
      'set GITHUB_WEBHOOK_SECRET and turn allowUnsigned off before anything else can reach it',
    );
  }
  if (webhook.poll) {
    return ok(
      'github-webhook',
      `webhook off; the poller reads comments every ${webhook.pollSeconds} s`,
    );
  }
  return warn(
    'github-webhook',
    'neither the webhook nor the poller is on: no comment reaches the-loop',
    'set GITHUB_WEBHOOK_SECRET (and point a webhook at the-loop), or set github.poll.enabled: true',
  );
}
