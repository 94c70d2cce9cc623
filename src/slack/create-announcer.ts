import type { WebClient } from '@slack/web-api';
import type { Config } from '../config/types.js';
import type { EventSink } from '../delivery/create-delivery-core.js';
import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { standingRef, standingTarget } from '../refs.js';
import type { StandingListener, StandingService } from '../standing/create-standing-service.js';
import type { StandingDefinition } from '../standing/standing-types.js';
import { callSlack } from './call-slack.js';
import type { ThreadBindings } from './thread-bindings.js';

/**
 * Announces a standing session in its channel the first time it starts and binds that thread to
 * it; later starts post into the same thread. Slack being down never stops a session: the failure
 * is recorded as `standing.announce_failed` and the session runs on.
 */
export function createAnnouncer(options: {
  readonly config: Config;
  readonly client: WebClient;
  readonly bindings: ThreadBindings;
  readonly standing: () => StandingService;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly maxAttempts?: number;
}): StandingListener & {
  announce(name: string, outcome: string, definition: StandingDefinition): Promise<void>;
} {
  const { config, client, bindings, events, logger } = options;
  const callOptions = { logger, maxAttempts: options.maxAttempts ?? 3 };

  const announce = async (
    name: string,
    outcome: string,
    definition: StandingDefinition,
  ): Promise<void> => {
    if (definition.slack === false) return;
    const channel = definition.slack.channel || config.slack.channel;
    if (!channel) return;
    const ref = standingRef(name);
    try {
      const existing = await bindings.forRef(ref);
      if (existing) {
        const text =
          outcome === 'resumed'
            ? `🔄 \`${name}\` is back, on the same conversation.`
            : `🔄 \`${name}\` started again.`;
        await callSlack(
          'chat.postMessage',
          () =>
            client.chat.postMessage({
              channel: existing.channel,
              thread_ts: existing.threadTs,
              text,
            }),
          callOptions,
        );
        events.record('standing.announced', {
          name,
          channel: existing.channel,
          threadTs: existing.threadTs,
          again: true,
        });
        return;
      }
      const posted = await callSlack(
        'chat.postMessage',
        () => client.chat.postMessage({ channel, text: announcement(name, definition, config) }),
        callOptions,
      );
      const threadTs = posted.ts;
      if (!threadTs) throw new Error('Slack returned no ts for the announcement');
      await bindings.bind({
        channel: posted.channel ?? channel,
        threadTs,
        ref,
        createdAt: new Date().toISOString(),
      });
      await options
        .standing()
        .recordSlackThread(name, { channel: posted.channel ?? channel, threadTs });
      events.record('standing.announced', { name, channel, threadTs });
    } catch (error) {
      const failure = asLoopError(error);
      events.record('standing.announce_failed', { name, channel, reason: failure.message });
      logger.warn(
        { event: 'standing.announce_failed', name, channel, code: failure.code },
        failure.message,
      );
    }
  };

  return {
    announce,
    started(name, outcome, definition) {
      void announce(name, outcome, definition);
    },
    deleted(name) {
      void bindings.unbindRef(standingRef(name)).catch((error: unknown) => {
        logger.warn(
          { event: 'slack.unbind_failed', name, err: error },
          'could not remove the Slack binding',
        );
      });
    },
  };
}

function announcement(name: string, definition: StandingDefinition, config: Config): string {
  const where = config.instance.name ? ` on \`${config.instance.name}\`` : '';
  const about = definition.description ? ` — ${definition.description}` : '';
  return (
    `🟢 Standing session \`${name}\` is running${where}${about}.\n` +
    `Reply in this thread to talk to it. \`!help\` lists thread commands; ` +
    `\`tmux attach -t '=${standingTarget(name)}'\` shows its terminal.`
  );
}
