import type { Logger } from '../log/create-logger.js';
import { standingRef } from '../refs.js';
import type { StandingObserver } from '../standing/create-standing-service.js';
import type { WorkItemObserver } from '../workitems/create-workitem-service.js';
import type { ReplyRouter } from './reply-router.js';

/** A session that ends by itself says so where its people are, with the remedy (docs/design.md §17). */
export function exitNotices(
  replies: Pick<ReplyRouter, 'post'>,
  logger: Logger,
): StandingObserver & WorkItemObserver {
  const tell = (ref: string, message: string): void => {
    void replies.post(ref, `⚠️ ${message}`, 'notice').catch((error: unknown) => {
      logger.warn({ event: 'session.exit_notice_failed', ref, err: error }, 'exit not told');
    });
  };
  return { exited: (name, message) => tell(standingRef(name), message), workItemExited: tell };
}
