import type { Octokit } from '@octokit/rest';
import type { Config } from '../config/types.js';
import type { Logger } from '../log/create-logger.js';
import { createRecordStore } from '../state/record-store.js';
import { callGithub } from './call-github.js';
import { fromPolledComment, type PolledComment } from './from-polled-comment.js';
import type { GithubComment } from './github-comment.js';

/** How far a poller that just took a repository's lease looks back: the lease's TTL. */
const leaseCatchUpMs = 30_000;

interface PollCursor {
  readonly since: string;
  readonly etag?: string;
}

const isPollCursor = (value: unknown): value is PollCursor =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { since?: unknown }).since === 'string';

interface CommentList {
  readonly what: string;
  readonly cursorSuffix: string;
  readonly route: (
    octokit: Octokit,
  ) => Octokit['issues']['listCommentsForRepo'] | Octokit['pulls']['listReviewCommentsForRepo'];
}

/**
 * The repository-wide lists GitHub offers. Submitted reviews have no such list (only per pull
 * request), so a review's own body reaches the-loop through the webhook alone.
 */
const commentLists: readonly CommentList[] = [
  {
    what: 'list comments',
    cursorSuffix: '',
    route: (octokit) => octokit.issues.listCommentsForRepo,
  },
  {
    what: 'list review comments',
    cursorSuffix: '.review-comments',
    route: (octokit) => octokit.pulls.listReviewCommentsForRepo,
  },
];

/**
 * For machines with no public URL (docs/design.md §7.1): lists new comments and review comments on each
 * configured repository every `github.poll.intervalSeconds`, with `since` and a conditional
 * request, and hands each to the same handler as the webhook. The cursors are kept on disk, so
 * comments made while the bot was down are still seen; on the very first run only comments from
 * then on count.
 */
export function createPoller(options: {
  readonly config: Config;
  readonly octokit: Octokit;
  readonly host: string;
  readonly cursorDir: string;
  readonly accept: (comment: GithubComment) => Promise<void>;
  readonly logger: Logger;
  readonly now?: () => number;
  /**
   * In a fleet, one instance per repository polls (docs/design.md §21): whether this one holds the
   * repository's lease, `taken` when it just came here.
   */
  readonly lease?: (repo: string) => Promise<'held' | 'taken' | 'elsewhere'>;
}) {
  const { config, octokit, logger } = options;
  const now = options.now ?? Date.now;
  const cursors = createRecordStore({ dir: options.cursorDir, validate: isPollCursor, logger });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  /**
   * One list of one repository since its cursor. Each list keeps its own cursor file: the issue
   * list under the repository's key (as before review comments were polled), review comments
   * beside it.
   */
  const pollList = async (full: string, list: CommentList, catchUp: boolean): Promise<void> => {
    const [owner = '', repo = ''] = full.split('/');
    const key = `${full.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}${list.cursorSuffix}`;
    const kept = await cursors.read(key);
    const cursor = catchUp ? caughtUp(kept) : (kept ?? { since: new Date(now()).toISOString() });
    const started = new Date(now()).toISOString();
    let newest = cursor.since;
    let etag = cursor.etag;
    try {
      const comments = await callGithub(
        list.what,
        async () => {
          const response = await octokit.paginate(
            list.route(octokit),
            {
              owner,
              repo,
              since: cursor.since,
              sort: 'updated',
              direction: 'asc',
              per_page: 100,
              ...(cursor.etag ? { headers: { 'if-none-match': cursor.etag } } : {}),
            },
            (page) => {
              etag = typeof page.headers.etag === 'string' ? page.headers.etag : etag;
              return page.data;
            },
          );
          return response as PolledComment[];
        },
        { logger },
      );
      for (const comment of comments) {
        const found = fromPolledComment(
          comment,
          { host: options.host, owner, repo },
          cursor.since,
          now(),
        );
        if (found) await options.accept(found);
        if (comment.updated_at > newest) newest = comment.updated_at;
      }
    } catch (error) {
      if ((error as { details?: { status?: unknown } }).details?.status === 304) {
        await cursors.write(key, { since: cursor.since, ...(etag ? { etag } : {}) });
        return;
      }
      throw error;
    }
    // The next poll starts where this one saw the newest comment (or when it began, if none).
    await cursors.write(key, {
      since: newest > cursor.since ? newest : started,
      ...(etag ? { etag } : {}),
    });
  };

  /**
   * A lease that just came here: the last holder may have stopped before its last round, so this
   * one looks back over the lease's TTL and two rounds (the ledger drops what was seen already),
   * never further, so a cursor left from long ago does not replay old commands.
   */
  const caughtUp = (kept: PollCursor | undefined): PollCursor => {
    const back = new Date(now() - leaseCatchUpMs - 2 * config.github.poll.intervalSeconds * 1000);
    const since = back.toISOString();
    return kept && kept.since > since ? kept : { since };
  };

  const pollAll = async (): Promise<void> => {
    for (const entry of config.github.repos) {
      const lease = options.lease ? await options.lease(entry.repo) : 'held';
      if (lease === 'elsewhere') continue;
      for (const list of commentLists) {
        try {
          await pollList(entry.repo, list, lease === 'taken');
        } catch (error) {
          logger.warn(
            { event: 'github.poll_failed', repo: entry.repo, list: list.what, err: error },
            'polling a repository failed',
          );
        }
      }
    }
  };

  const pollOnce = (): Promise<void> => {
    running ??= pollAll().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    /** One round now (a round already running is joined, not doubled). */
    pollOnce,
    start(): void {
      const schedule = (): void => {
        if (stopped) return;
        timer = setTimeout(() => {
          void pollOnce().finally(schedule);
        }, config.github.poll.intervalSeconds * 1000);
      };
      void pollOnce().finally(schedule);
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
