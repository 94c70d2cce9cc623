import type { CommentRecord } from './create-github-store.js';
import type { Query } from './page-list.js';

export type Selected =
  | { readonly ok: true; readonly comments: CommentRecord[] }
  | { readonly ok: false; readonly message: string };

/**
 * Filters and orders comments as the list endpoints do: `since` keeps comments updated at or after
 * that instant; `sort` is `created` (the default) or `updated`; `direction` is `asc` or `desc`.
 * Without `sort` the list is oldest first; with `sort` and no `direction` it is newest first, as
 * GitHub's sortable lists default to. Ties keep id order, so pages never overlap.
 */
export function selectComments(comments: readonly CommentRecord[], query: Query): Selected {
  const { since, sort, direction } = query;
  const sinceMs = since === undefined ? undefined : Date.parse(since);
  if (sinceMs !== undefined && Number.isNaN(sinceMs)) {
    return { ok: false, message: `Invalid value for \`since\`: ${since} is not an ISO 8601 time` };
  }
  if (sort !== undefined && sort !== 'created' && sort !== 'updated') {
    return { ok: false, message: `Invalid value for \`sort\`: ${sort}` };
  }
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
    return { ok: false, message: `Invalid value for \`direction\`: ${direction}` };
  }
  const ascending = (direction ?? (sort === undefined ? 'asc' : 'desc')) === 'asc';
  const key = (c: CommentRecord) => (sort === 'updated' ? c.updatedAt : c.createdAt);
  // GitHub compares at whole seconds, the precision of the timestamps it hands out.
  const second = (ms: number) => Math.floor(ms / 1000);
  const kept = comments.filter(
    (c) => sinceMs === undefined || second(c.updatedAt) >= second(sinceMs),
  );
  const ordered = [...kept].sort((a, b) => second(key(a)) - second(key(b)) || a.id - b.id);
  return { ok: true, comments: ascending ? ordered : ordered.reverse() };
}
