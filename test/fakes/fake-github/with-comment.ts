import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { stableId } from './fake-github-user.js';

export type ExampleEvent = 'issue_comment' | 'pull_request_review_comment' | 'pull_request_review';
export type ExamplePayload<E extends ExampleEvent = ExampleEvent> =
  WebhookDefinition<E>['examples'][number];

export interface CommentChange {
  readonly body: string;
  readonly login: string;
  /** Defaults to `Bot` for logins ending in `[bot]`, `User` otherwise. */
  readonly userType?: 'User' | 'Bot';
  /** `owner/name`. */
  readonly repo?: string;
  readonly number?: number;
  /** The comment's id, or the review's id for `pull_request_review`. */
  readonly commentId?: number;
  /** For `issue_comment`: whether the issue is a pull request's conversation. */
  readonly isPullRequest?: boolean;
}

type Json = Record<string, unknown>;

function child(parent: Json, key: string): Json {
  const value = parent[key];
  if (typeof value === 'object' && value !== null) return value as Json;
  const created: Json = {};
  parent[key] = created;
  return created;
}

/** Rewrites every URL naming the example's repository, so links agree with `repository`. */
function renameRepo(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return value.replace(new RegExp(`(?<=[/:])${escaped}(?=[/.#{]|$)`, 'g'), to);
  }
  if (Array.isArray(value)) return value.map((item) => renameRepo(item, from, to));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, renameRepo(item, from, to)]),
  );
}

/**
 * A deep copy of an example payload with the author, text, repository, issue/PR number and comment
 * id set, and the fields that repeat them (sender, owner, URLs, `issue.pull_request`) kept in step,
 * so it reads like a delivery GitHub would send for that comment.
 */
export function withComment<P extends ExamplePayload>(payload: P, change: CommentChange): P {
  let copy = structuredClone(payload) as unknown as Json;
  const repository = child(copy, 'repository');
  const oldFullName = String(repository['full_name']);
  const fullName = change.repo ?? oldFullName;
  const [owner = '', name = ''] = fullName.split('/');
  if (fullName !== oldFullName) copy = renameRepo(copy, oldFullName, fullName) as Json;
  Object.assign(copy['repository'] as Json, { name, full_name: fullName });
  Object.assign(child(child(copy, 'repository'), 'owner'), { login: owner, id: stableId(owner) });

  const type = change.userType ?? (change.login.endsWith('[bot]') ? 'Bot' : 'User');
  const user = { login: change.login, id: stableId(change.login), type };
  const api = `https://api.github.com/repos/${fullName}`;
  const html = `https://github.com/${fullName}`;
  const isReview = 'review' in copy;
  const target = child(copy, isReview ? 'review' : 'comment');
  Object.assign(child(target, 'user'), user, { html_url: `https://github.com/${change.login}` });
  Object.assign(child(copy, 'sender'), user, { html_url: `https://github.com/${change.login}` });
  target['body'] = change.body;
  const id = change.commentId ?? Number(target['id']);
  target['id'] = id;

  if ('issue' in copy) {
    const issue = child(copy, 'issue');
    const number = change.number ?? Number(issue['number']);
    const isPull = change.isPullRequest ?? 'pull_request' in issue;
    const page = `${html}/${isPull ? 'pull' : 'issues'}/${number}`;
    Object.assign(issue, { number, url: `${api}/issues/${number}`, html_url: page });
    delete issue['pull_request'];
    if (isPull) {
      const pull = { url: `${api}/pulls/${number}`, html_url: page, diff_url: `${page}.diff` };
      issue['pull_request'] = { ...pull, patch_url: `${page}.patch` };
    }
    target['url'] = `${api}/issues/comments/${id}`;
    target['html_url'] = `${page}#issuecomment-${id}`;
    target['issue_url'] = `${api}/issues/${number}`;
    return copy as unknown as P;
  }
  const pull = child(copy, 'pull_request');
  const number = change.number ?? Number(pull['number']);
  const page = `${html}/pull/${number}`;
  Object.assign(pull, { number, url: `${api}/pulls/${number}`, html_url: page });
  pull['issue_url'] = `${api}/issues/${number}`;
  target['pull_request_url'] = `${api}/pulls/${number}`;
  target['html_url'] = isReview ? `${page}#pullrequestreview-${id}` : `${page}#discussion_r${id}`;
  if (!isReview) target['url'] = `${api}/pulls/comments/${id}`;
  return copy as unknown as P;
}
