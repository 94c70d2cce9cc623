import type { WorkItemRef } from '../refs.js';
import type { GithubComment } from './github-comment.js';

export interface PolledComment {
  readonly id: number;
  readonly body?: string | null;
  readonly user?: { readonly login: string; readonly type?: string } | null;
  readonly issue_url: string;
  readonly html_url: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * A comment from `GET /repos/{owner}/{repo}/issues/comments` as a GithubComment. Only comments
 * created since the last poll count: one created earlier and edited since is an edit, and edits
 * are not re-judged.
 */
export function fromPolledComment(
  comment: PolledComment,
  repo: { host: string; owner: string; repo: string },
  since: string,
  receivedAt: number,
): GithubComment | undefined {
  // GitHub stamps comments in whole seconds; a cursor may have milliseconds.
  const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  if (second(comment.created_at) < second(since)) return undefined;
  // issue_url spells owner and repository as GitHub does, as the webhook reports them; the
  // config may spell them in another case, which would name another session.
  const [, owner, name, digits] =
    /\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(comment.issue_url) ?? [];
  const number = Number(digits);
  if (!owner || !name || !Number.isInteger(number) || number <= 0 || !comment.user)
    return undefined;
  const item: WorkItemRef = { host: repo.host, owner, repo: name, number };
  return {
    source: 'poll',
    deliveryId: '',
    kind: 'issue_comment',
    commentId: comment.id,
    body: comment.body ?? '',
    author: { login: comment.user.login, type: comment.user.type ?? 'User' },
    item,
    receivedAt,
  };
}
