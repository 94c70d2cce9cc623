import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/delivery-request.js';
import type { EventSink } from '../state/event-log.js';
import { asLoopError } from '../errors.js';
import { decideScope } from '../instance/decide-scope.js';
import { isManaged } from '../instance/is-managed.js';
import { parseAddress } from '../instance/parse-address.js';
import { scopeRefusalFields } from '../instance/scope-refusal.js';
import type { Logger } from '../log/create-logger.js';
import { submissionOf, type Handled, type IntakeItem } from '../intake/intake.js';
import { workItemRef } from '../refs.js';
import type { WorkItemService } from '../workitems/create-workitem-service.js';
import { loadManagedFacts } from '../workitems/load-managed-facts.js';
import { mayDecide } from '../permissions/decisions.js';
import { parseKeywordCommand } from './comment/parse-keyword-command.js';
import { parsePermissionKeyword } from './comment/parse-permission-keyword.js';
import type { PermissionCommentOutcome, PermissionGithub } from './create-permission-github.js';
import type { GithubResponder } from './create-github-responder.js';
import { carriesMarker, isBot, type GithubComment } from './github-comment.js';

export type CommentOutcome =
  | 'ignored-bot'
  | 'unauthorized'
  | 'refused'
  | 'ambiguous-command'
  | 'started'
  | 'stopped'
  | 'delivered'
  | 'not-running'
  | 'failed'
  | PermissionCommentOutcome;

/**
 * The one handler behind the webhook and the poller (docs/design.md §7): bots and our own posts are
 * ignored, unauthorized authors get nothing, the scope decision runs before anything touches
 * GitHub (a refusal leaves no mark at all), then the keyword or the plain comment is acted on.
 */
export function createCommentHandler(options: {
  readonly config: Config;
  readonly actions: GithubResponder;
  readonly workItems: WorkItemService;
  readonly delivery: DeliveryCore;
  readonly events: EventSink;
  /** `<keyword> allow|deny <id>` (docs/design.md §14): approvers only, after the same scope decision. */
  readonly permissions?: PermissionGithub;
}) {
  const { config, actions, workItems, delivery, events } = options;
  // Read at each comment, so a config reload applies at once.
  const authorized = (login: string): boolean =>
    config.github.authorizedUsers.some((each) => each.toLowerCase() === login.toLowerCase());

  const managedNow = async (comment: GithubComment) =>
    isManaged(
      comment.item,
      await loadManagedFacts(config, workItems, comment.item),
      config.instance.name,
    );

  const bestEffort = async (
    logger: Logger,
    what: string,
    action: () => Promise<unknown>,
  ): Promise<void> => {
    try {
      await action();
    } catch (error) {
      logger.warn(
        { event: 'github.action_failed', action: what, code: asLoopError(error).code },
        'GitHub action failed',
      );
    }
  };

  /**
   * A delivery's reaction or failure comment is its `tell`: the intake runs it once the entry is
   * done (intake/done-rule.ts). Everything else is told before the handler returns.
   */
  const judge = async (
    comment: GithubComment,
    logger: Logger,
    submission: ReturnType<typeof submissionOf>,
  ): Promise<Handled<CommentOutcome>> => {
    const ref = workItemRef(comment.item);
    const answer = (outcome: CommentOutcome): Handled<CommentOutcome> => ({ outcome });
    if (isBot(comment.author) || carriesMarker(comment.body)) return answer('ignored-bot');
    const address = parseAddress(comment.body);
    const command = parseKeywordCommand(comment.body, config.github.keyword);
    const permission = options.permissions
      ? parsePermissionKeyword(comment.body, config.github.keyword)
      : undefined;
    if (permission && !mayDecide('github', config.github.approvers, comment.author.login)) {
      logger.info(
        { event: 'github.permission_refused', actor: comment.author.login, workItem: ref },
        'permission answer by someone who is not an approver',
      );
      return answer('unauthorized');
    }
    if (!permission && !authorized(comment.author.login)) {
      // An unauthorized author's address or keyword grants nothing.
      logger.info(
        { event: 'github.unauthorized', actor: comment.author.login, workItem: ref },
        'comment by an unauthorized user',
      );
      return answer('unauthorized');
    }
    const decision = decideScope(config.instance, address, (await managedNow(comment)).managed);
    if (!decision.acts) {
      const fields = scopeRefusalFields({
        reason: decision.outcome,
        instance: config.instance,
        address,
        command,
        actor: comment.author.login,
        workItem: comment.item,
        deliveryId: comment.deliveryId,
      });
      events.record('scope.refused', { ...fields });
      logger.info({ event: 'scope.refused', ...fields }, 'comment refused for scope');
      return answer('refused');
    }
    if (permission && options.permissions) {
      return answer(await options.permissions.decide(comment, permission));
    }
    if (command.kind === 'ambiguous') {
      await bestEffort(logger, 'react', () => actions.react(comment, 'confused'));
      await bestEffort(logger, 'comment', () =>
        actions.comment(
          comment.item,
          `That comment asks for both \`${config.github.keyword} start\` and \`${config.github.keyword} stop\`; ` +
            'post one of them on its own.',
        ),
      );
      return answer('ambiguous-command');
    }
    const plain = command.kind === 'none';
    // A plain comment on an item without a running session is not for us: leave it unmarked.
    if (plain && !(await workItems.isRunning(comment.item))) return answer('not-running');
    await bestEffort(logger, 'react', () => actions.react(comment, 'eyes'));
    try {
      if (command.kind === 'command' && command.command === 'start') {
        const { outcome } = await workItems.start(comment.item, comment.author.login);
        await bestEffort(logger, 'react', () => actions.react(comment, 'rocket'));
        if (outcome !== 'already-running') {
          const instance = config.instance.name
            ? `instance \`${config.instance.name}\``
            : 'an unnamed instance';
          await bestEffort(logger, 'comment', () =>
            actions.comment(
              comment.item,
              `🟢 the-loop (${instance}) ${outcome === 'resumed' ? 'resumed' : 'started'} a session for ${ref}. ` +
                `Comment here to talk to it; \`${config.github.keyword} stop\` ends it.`,
            ),
          );
        }
        return answer('started');
      }
      if (command.kind === 'command' && command.command === 'stop') {
        await workItems.stop(comment.item);
        await bestEffort(logger, 'react', () => actions.react(comment, 'rocket'));
        return answer('stopped');
      }
      const result = await delivery.deliver({
        ref,
        text: comment.body,
        origin: {
          surface: 'github',
          actor: comment.author.login,
          workItem: ref.replace(/^github:/, ''),
        },
        ids: {
          githubCommentId: String(comment.commentId),
          ...(comment.deliveryId ? { githubDeliveryId: comment.deliveryId } : {}),
        },
        ...submission,
      });
      // The rocket once the entry is done: a crash after it cannot type the comment again.
      return {
        outcome: 'delivered',
        ...(result.outcome === 'delivered'
          ? { tell: () => bestEffort(logger, 'react', () => actions.react(comment, 'rocket')) }
          : {}),
      };
    } catch (error) {
      const failure = asLoopError(error);
      logger.warn(
        { event: 'github.handle_failed', workItem: ref, code: failure.code },
        failure.message,
      );
      return {
        outcome: 'failed',
        tell: () =>
          bestEffort(logger, 'comment', () =>
            actions.comment(comment.item, `⚠️ ${failure.message}`),
          ),
      };
    }
  };

  return (item: IntakeItem<GithubComment>): Promise<Handled<CommentOutcome>> =>
    judge(item.message, item.logger, submissionOf(item));
}
