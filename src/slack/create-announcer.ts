import type { WebClient } from '@slack/web-api';
import type { Config } from '../config/types.js';
import type { EventSink } from '../state/event-log.js';
import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { parseWorkItemRef, standingRef, standingTarget, workItemTarget } from '../refs.js';
import type { StandingObserver, StandingService } from '../standing/create-standing-service.js';
import type { StandingDefinition } from '../standing/standing-types.js';
import type { WorkItemObserver } from '../workitems/create-workitem-service.js';
import { callSlack, threadSay } from './call-slack.js';
import type { ThreadBinding, ThreadBindings } from './thread-bindings.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';

interface Announcement {
  readonly ref: string;
  readonly channel: string;
  /** The thread's first message. */
  readonly first: string;
  /** What a later start posts into the same thread. */
  readonly again: string;
  /** Event names and fields for the outcome. */
  readonly event: {
    readonly ok: string;
    readonly failed: string;
    readonly fields: Record<string, unknown>;
  };
}

/**
 * Announces a session in its channel the first time it starts and binds that thread to its ref; a
 * later start posts into the same thread, never a new one. Slack being down never stops a
 * session: the failure is recorded (`standing.announce_failed`) and the session runs on.
 */
export function createAnnouncer(options: {
  readonly config: Config;
  readonly client: WebClient;
  readonly bindings: ThreadBindings;
  readonly standing: StandingService;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly maxAttempts?: number;
}): StandingObserver & WorkItemObserver {
  const { config, client, bindings, events, logger } = options;
  const callOptions = { logger, maxAttempts: options.maxAttempts ?? 3 };

  const announce = async (plan: Announcement): Promise<ThreadBinding | undefined> => {
    try {
      const existing = await bindings.forRef(plan.ref);
      if (existing) {
        await threadSay(client, existing, callOptions)(plan.again);
        events.record(plan.event.ok, {
          ...plan.event.fields,
          channel: existing.channel,
          again: true,
        });
        return undefined;
      }
      const posted = await callSlack(
        'chat.postMessage',
        () => client.chat.postMessage({ channel: plan.channel, text: plan.first }),
        callOptions,
      );
      if (!posted.ts) throw new Error('Slack returned no ts for the announcement');
      const binding = {
        channel: posted.channel ?? plan.channel,
        threadTs: posted.ts,
        ref: plan.ref,
        createdAt: new Date().toISOString(),
      };
      await bindings.bind(binding);
      events.record(plan.event.ok, {
        ...plan.event.fields,
        channel: binding.channel,
        threadTs: binding.threadTs,
      });
      return binding;
    } catch (error) {
      const failure = asLoopError(error);
      events.record(plan.event.failed, {
        ...plan.event.fields,
        channel: plan.channel,
        reason: failure.message,
      });
      logger.warn(
        { event: plan.event.failed, ...plan.event.fields, code: failure.code },
        failure.message,
      );
      return undefined;
    }
  };

  const announceStanding = async (
    name: string,
    outcome: string,
    definition: StandingDefinition,
  ) => {
    if (definition.slack === false) return;
    const channel = definition.slack.channel || config.slack.channel;
    if (!channel) return;
    const binding = await announce({
      ref: standingRef(name),
      channel,
      first: standingAnnouncement(name, definition, config),
      again:
        outcome === 'resumed'
          ? `🔄 \`${name}\` is back, on the same conversation.`
          : `🔄 \`${name}\` started again.`,
      event: { ok: 'standing.announced', failed: 'standing.announce_failed', fields: { name } },
    });
    if (binding)
      await options.standing.recordSlackThread(name, {
        channel: binding.channel,
        threadTs: binding.threadTs,
      });
  };

  return {
    started(name, outcome, definition) {
      void announceStanding(name, outcome, definition);
    },
    deleted(name) {
      void bindings.unbindRef(standingRef(name)).catch((error: unknown) => {
        logger.warn(
          { event: 'slack.unbind_failed', name, err: error },
          'could not remove the Slack binding',
        );
      });
    },
    workItemStarted(ref, outcome) {
      const item = parseWorkItemRef(ref);
      if (!item || !config.slack.channel) return;
      const where = config.instance.name ? ` on \`${config.instance.name}\`` : '';
      void announce({
        ref,
        channel: config.slack.channel,
        first:
          `🟢 A session for ${ref}${where} is running: https://${item.host}/${item.owner}/${item.repo}/issues/${item.number}\n` +
          `Reply in this thread to talk to it, or comment on the issue. ` +
          `\`${tmuxAttachCommand(workItemTarget(item), config.tmux.socket)}\` shows its terminal.`,
        again:
          outcome === 'resumed'
            ? `🔄 The session for ${ref} is back, on the same conversation.`
            : `🔄 The session for ${ref} started again.`,
        event: { ok: 'workitem.announced', failed: 'workitem.announce_failed', fields: { ref } },
      });
    },
  };
}

function standingAnnouncement(
  name: string,
  definition: StandingDefinition,
  config: Config,
): string {
  const where = config.instance.name ? ` on \`${config.instance.name}\`` : '';
  const about = definition.description ? ` — ${definition.description}` : '';
  return (
    `🟢 Standing session \`${name}\` is running${where}${about}.\n` +
    `Reply in this thread to talk to it. \`!help\` lists thread commands; ` +
    `\`${tmuxAttachCommand(standingTarget(name), config.tmux.socket)}\` shows its terminal.`
  );
}
