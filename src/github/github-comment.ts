import type { WorkItemRef } from '../refs.js';

/** One comment to judge, whichever ingress saw it (docs/design.md §7.1: both feed one handler). */
export interface GithubComment {
  readonly source: 'webhook' | 'poll';
  /** The webhook's X-GitHub-Delivery; "" for polled comments. */
  readonly deliveryId: string;
  readonly kind: 'issue_comment' | 'review_comment' | 'review';
  readonly commentId: number;
  readonly body: string;
  readonly author: { readonly login: string; readonly type: string };
  readonly item: WorkItemRef;
  readonly receivedAt: number;
}

/** What the-loop puts in everything it posts on GitHub, so it never answers itself. */
export function hiddenMarker(instance: string): string {
  return `<!-- the-loop:instance=${instance} -->`;
}

export function carriesMarker(body: string): boolean {
  return body.includes('<!-- the-loop:instance=');
}

export function isBot(author: { login: string; type: string }): boolean {
  return author.type === 'Bot' || author.login.endsWith('[bot]');
}

/** The ids one comment is known by: a redelivery shares the first, the other ingress the second. */
export function commentDedupeIds(comment: GithubComment): string[] {
  // Comment ids are unique on one GitHub server; the host is left out because the poller and the
  // webhook may spell it differently (an API URL and an html_url).
  const where = `${comment.item.owner}/${comment.item.repo}`.toLowerCase();
  return [
    ...(comment.deliveryId ? [`github:delivery:${comment.deliveryId}`] : []),
    `github:${comment.kind}:${where}:${comment.commentId}`,
  ];
}

export function isGithubComment(value: unknown): value is GithubComment {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  const item = entry['item'] as Record<string, unknown> | null | undefined;
  const author = entry['author'] as Record<string, unknown> | null | undefined;
  return (
    (entry['source'] === 'webhook' || entry['source'] === 'poll') &&
    typeof entry['deliveryId'] === 'string' &&
    ['issue_comment', 'review_comment', 'review'].includes(String(entry['kind'])) &&
    typeof entry['commentId'] === 'number' &&
    typeof entry['body'] === 'string' &&
    typeof author?.['login'] === 'string' &&
    typeof author['type'] === 'string' &&
    typeof item?.['host'] === 'string' &&
    typeof item['owner'] === 'string' &&
    typeof item['repo'] === 'string' &&
    typeof item['number'] === 'number' &&
    typeof entry['receivedAt'] === 'number'
  );
}
