import type { WorkItemRef } from '../refs.js';
import type { GithubComment } from './github-comment.js';

/** What both list endpoints return for a comment; each carries one of the two parent URLs. */
export interface PolledComment {
  readonly id: number;
  readonly body?: string | null;
  readonly user?: { readonly login: string; readonly type?: string } | null;
  /** On `GET /repos/{owner}/{repo}/issues/comments` (a conversation comment). */
  readonly issue_url?: string;
  /** On `GET /repos/{owner}/{repo}/pulls/comments` (a review comment on a diff). */
  readonly pull_request_url?: string;
  readonly html_url: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * A comment from one of the repository-wide comment lists as a GithubComment. Only comments
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
  const parent = parentOf(comment);
  if (!parent || !comment.user) return undefined;
  const item: WorkItemRef = { host: repo.host, ...parent.item };
  return {
    source: 'poll',
    deliveryId: '',
    kind: parent.kind,
    commentId: comment.id,
    body: comment.body ?? '',
    author: { login: comment.user.login, type: comment.user.type ?? 'User' },
    item,
    receivedAt,
  };
}

/**
 * The parent URL spells owner and repository as GitHub does, as the webhook reports them; the
 * config may spell them in another case, which would name another session.
 */
function parentOf(
  comment: PolledComment,
):
  | { kind: GithubComment['kind']; item: { owner: string; repo: string; number: number } }
  | undefined {
  const [url, kind, pattern] =
    comment.issue_url !== undefined
      ? [comment.issue_url, 'issue_comment' as const, /\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/]
      : [
          comment.pull_request_url ?? '',
          'review_comment' as const,
          /\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/,
        ];
  const [, owner, repo, digits] = pattern.exec(url) ?? [];
  const number = Number(digits);
  if (!owner || !repo || !Number.isInteger(number) || number <= 0) return undefined;
  return { kind, item: { owner, repo, number } };
}
