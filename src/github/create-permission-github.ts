import type { Config } from '../config/types.js';
import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { Permissions } from '../permissions/create-permissions.js';
import { decisionReply } from '../permissions/decisions.js';
import { parseWorkItemRef, workItemRef, type WorkItemRef } from '../refs.js';
import type { PermissionKeyword } from './comment/parse-permission-keyword.js';
import type { GithubResponder } from './create-github-responder.js';
import type { GithubComment } from './github-comment.js';
import { permissionComment } from './permission-comment.js';

export type PermissionCommentOutcome =
  'permission-decided' | 'permission-unknown' | 'permission-late';

export interface PermissionGithub {
  /** Decides from an approver's comment that passed the scope decision. */
  decide(comment: GithubComment, keyword: PermissionKeyword): Promise<PermissionCommentOutcome>;
}

/**
 * Permission requests on work items (docs/design.md §14): a marked comment names each request and how to
 * answer it, and is edited once it ended. Keyword comments decide it; an id this instance did not
 * issue (another instance's, or none) leaves no mark at all.
 */
export function createPermissionGithub(options: {
  readonly config: Config;
  readonly actions: GithubResponder;
  readonly permissions: Permissions;
  readonly logger: Logger;
}): PermissionGithub {
  const { config, actions, logger } = options;
  const { registry } = options.permissions;
  // Read at each request, so a config reload applies to the next one.
  const mode = () => config.github.permissions;
  const configured = (ref: string): WorkItemRef | undefined => {
    const item = parseWorkItemRef(ref);
    const full = item ? `${item.owner}/${item.repo}`.toLowerCase() : '';
    return item && config.github.repos.some((entry) => entry.repo.toLowerCase() === full)
      ? item
      : undefined;
  };
  const warn = (error: unknown): void => {
    const failure = asLoopError(error);
    logger.warn({ event: 'github.permission_comment_failed', code: failure.code }, failure.message);
  };
  options.permissions.follow({
    post: async (request) => {
      const shown = mode();
      const item = configured(request.ref);
      if (!item || shown === 'off') return undefined;
      const text = permissionComment({
        request,
        mode: shown,
        keyword: config.github.keyword,
        instance: config.instance.name,
      });
      return actions
        .comment(item, text)
        .then((made) => ({ item, id: made.id }))
        .catch((error: unknown) => {
          warn(error);
          return undefined;
        });
    },
    settle: async (request, outcome, where) => {
      const shown = mode();
      // A comment posted before a reload turned them off is still closed, in brief.
      const body = permissionComment({
        request,
        mode: shown === 'off' ? 'brief' : shown,
        keyword: config.github.keyword,
        instance: config.instance.name,
        outcome,
      });
      await actions.editComment(where.item, where.id, body).catch(warn);
    },
  });

  return {
    async decide(comment, keyword) {
      const known = registry.find(keyword.id);
      // Another instance's request, or one long gone: not ours to answer, and not ours to mark.
      if (!known || known.request.ref.toLowerCase() !== workItemRef(comment.item).toLowerCase()) {
        return 'permission-unknown';
      }
      const result = registry.decide(
        keyword.id,
        keyword.verdict,
        { surface: 'github', name: `@${comment.author.login}` },
        keyword.reason,
      );
      if (result.kind === 'decided') {
        await actions.react(comment, 'rocket').catch(warn);
        return 'permission-decided';
      }
      await actions.react(comment, 'confused').catch(warn);
      await actions.comment(comment.item, decisionReply(result, keyword.id).text).catch(warn);
      return 'permission-late';
    },
  };
}
