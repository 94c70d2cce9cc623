import { defaultGithubHost, parseWorkItemRef, workItemRef, type WorkItemRef } from '../refs.js';
import type { GithubComment } from './github-comment.js';
import { isRecord } from '../guards.js';

type Json = Record<string, unknown>;

/**
 * The three events the-loop handles (docs/design.md §7.1) as a GithubComment; anything else — other
 * events, other actions (edits are not re-judged), malformed payloads — is undefined.
 */
export function fromWebhookPayload(
  event: string,
  payload: unknown,
  deliveryId: string,
  receivedAt: number,
): GithubComment | undefined {
  if (!isRecord(payload)) return undefined;
  const action = payload['action'];
  const repository = payload['repository'];
  if (!isRecord(repository)) return undefined;
  let kind: GithubComment['kind'];
  let comment: unknown;
  let number: unknown;
  if (event === 'issue_comment' && action === 'created') {
    kind = 'issue_comment';
    comment = payload['comment'];
    number = isRecord(payload['issue']) ? payload['issue']['number'] : undefined;
  } else if (event === 'pull_request_review_comment' && action === 'created') {
    kind = 'review_comment';
    comment = payload['comment'];
    number = isRecord(payload['pull_request']) ? payload['pull_request']['number'] : undefined;
  } else if (event === 'pull_request_review' && action === 'submitted') {
    kind = 'review';
    comment = payload['review'];
    number = isRecord(payload['pull_request']) ? payload['pull_request']['number'] : undefined;
  } else {
    return undefined;
  }
  const item = workItemOf(repository, number);
  if (!isRecord(comment) || !item || typeof comment['id'] !== 'number') return undefined;
  const user = comment['user'];
  if (!isRecord(user) || typeof user['login'] !== 'string') return undefined;
  return {
    source: 'webhook',
    deliveryId,
    kind,
    commentId: comment['id'],
    body: typeof comment['body'] === 'string' ? comment['body'] : '',
    author: {
      login: user['login'],
      type: typeof user['type'] === 'string' ? user['type'] : 'User',
    },
    item,
    receivedAt,
  };
}

export function workItemOf(repository: Json, number: unknown): WorkItemRef | undefined {
  const owner = isRecord(repository['owner']) ? repository['owner']['login'] : undefined;
  const repo = repository['name'];
  if (typeof owner !== 'string' || typeof repo !== 'string' || typeof number !== 'number')
    return undefined;
  const item = { host: hostOf(repository['html_url']), owner, repo, number };
  // Only what reads back as a ref goes on: no issue 0, 1.5 or -3, no empty repository name.
  return parseWorkItemRef(workItemRef(item)) ? item : undefined;
}

function hostOf(url: unknown): string {
  if (typeof url !== 'string') return defaultGithubHost;
  try {
    return new URL(url).host.toLowerCase() || defaultGithubHost;
  } catch {
    return defaultGithubHost;
  }
}
