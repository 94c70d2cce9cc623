import type { Config } from '../config/types.js';

export interface GithubPlan {
  readonly token: string;
  readonly apiUrl?: string;
  /** undefined: the webhook ingress is off. "" : on, unsigned (loopback only, by config). */
  readonly webhookSecret?: string;
  readonly poll: boolean;
  /** Things the operator should know about this plan, one line each. */
  readonly notes: readonly string[];
}

export type GithubDecision =
  | { readonly on: true; readonly plan: GithubPlan }
  | { readonly on: false; readonly reason: string };

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * GitHub is on with a token. The webhook ingress needs GITHUB_WEBHOOK_SECRET; without one it stays
 * off, unless the listener is bound to loopback and `github.webhook.allowUnsigned` is true (docs/design.md
 * §7.1). The poller runs when `github.poll.enabled` is.
 */
export function decideGithub(config: Config, env: NodeJS.ProcessEnv): GithubDecision {
  const token = env['GITHUB_TOKEN'] ?? '';
  if (!token)
    return {
      on: false,
      reason:
        'github: off — set GITHUB_TOKEN (and GITHUB_WEBHOOK_SECRET for webhooks) to turn it on',
    };
  const secret = env['GITHUB_WEBHOOK_SECRET'] ?? '';
  const unsignedAllowed =
    config.github.webhook.allowUnsigned && loopbackHosts.has(config.http.host);
  const notes: string[] = [];
  if (!secret && config.github.webhook.allowUnsigned && !unsignedAllowed) {
    notes.push(
      `github: webhook off — allowUnsigned works only on a loopback http.host, not ${config.http.host}`,
    );
  } else if (!secret && !unsignedAllowed) {
    notes.push('github: webhook off — set GITHUB_WEBHOOK_SECRET to turn it on');
  }
  if (!config.github.poll.enabled)
    notes.push('github: poller off — set github.poll.enabled to poll for comments');
  return {
    on: true,
    plan: {
      token,
      ...(env['GITHUB_API_URL'] ? { apiUrl: env['GITHUB_API_URL'] } : {}),
      ...(secret ? { webhookSecret: secret } : unsignedAllowed ? { webhookSecret: '' } : {}),
      poll: config.github.poll.enabled,
      notes,
    },
  };
}
