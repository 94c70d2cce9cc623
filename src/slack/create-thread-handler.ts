import { readLive, type Live } from '../config/live-config.js';
import type { WebClient } from '@slack/web-api';
import type { DeliveryCore } from '../delivery/delivery-request.js';
import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { submissionOf, type Handled, type IntakeItem } from '../intake/intake.js';
import { callSlack, threadSay } from './call-slack.js';
import type { SlackNames } from './create-slack-names.js';
import type { SlackInboxMessage } from './slack-inbox-message.js';
import { parseThreadCommand } from './commands/parse-thread-command.js';
import { decodeSlackText, mentionedUserIds } from './text/decode-slack-text.js';
import type { ThreadBindings } from './thread-bindings.js';
import type { ThreadCommands } from './create-thread-commands.js';
import type { FileReceiver } from './files/create-file-receiver.js';
import { withFileLines } from './files/format-file-lines.js';

/** How long a message may take to go in before it shows the hourglass (docs/design.md §17). */
export const queuedAfterMs = 1_000;

/** What the thread handler needs to know of a bound session to hand it files. */
export type SessionTargetLookup = (
  ref: string,
) => Promise<{ readonly tmuxName: string; readonly agent: boolean }>;

export interface ThreadHandlerOptions {
  readonly client: WebClient;
  readonly bindings: ThreadBindings;
  readonly delivery: DeliveryCore;
  readonly names: SlackNames;
  readonly commands: ThreadCommands;
  /** Read at each message, so a config reload applies at once. */
  readonly authorizedUsers: Live<readonly string[]>;
  /**
   * `!allow` / `!deny` (docs/design.md §14): judged before the authorized-user check, since approvers
   * decide them; true when the message was one and has been answered.
   */
  readonly permissionCommand?: (message: SlackInboxMessage, ref: string) => Promise<boolean>;
  /** Files in (docs/design.md §15): both or neither; without them, attached files are ignored. */
  readonly sessionTarget?: SessionTargetLookup;
  readonly receiveFiles?: FileReceiver;
}

/** What the thread handler did with a reply; the intake marks its entry done after any of them. */
export type ThreadOutcome =
  | 'unbound'
  | 'permission-answer'
  | 'unauthorized'
  | 'command'
  | 'nothing-to-deliver'
  | 'delivered'
  | 'unconfirmed'
  | 'failed';

/**
 * Handles one recorded thread reply (docs/design.md §6): unbound threads are ignored, unauthorized people
 * get one ephemeral notice, `!` commands run here and never reach the agent, everything else goes
 * through the delivery core with `eyes` → `white_check_mark` (or `warning` and the reason). The
 * result and the reason are told once the intake has marked the entry done.
 */
export function createThreadHandler(options: ThreadHandlerOptions) {
  const { client, bindings, delivery, names } = options;

  /** Adds or removes a reaction; a failure is logged and never stops the message's handling. */
  const reaction =
    (method: 'reactions.add' | 'reactions.remove', failed: string) =>
    (message: SlackInboxMessage, name: string, logger: Logger): Promise<void> => {
      const target = { channel: message.channel, timestamp: message.ts, name };
      const call = () =>
        method === 'reactions.add' ? client.reactions.add(target) : client.reactions.remove(target);
      return callSlack(method, call, { logger, maxAttempts: 3 })
        .then(() => undefined)
        .catch((error: unknown) => {
          logger.warn(
            {
              event: 'slack.reaction_failed',
              name,
              code: asLoopError(error).code,
              reason: asLoopError(error).message,
            },
            failed,
          );
        });
    };
  const react = reaction('reactions.add', 'reaction not added');
  const unreact = reaction('reactions.remove', 'reaction not removed');

  const reply = (message: SlackInboxMessage, text: string, logger: Logger): Promise<void> =>
    threadSay(client, message, { logger, maxAttempts: 3 })(text)
      .then(() => undefined)
      .catch((error: unknown) => {
        logger.warn(
          {
            event: 'slack.reply_failed',
            code: asLoopError(error).code,
            reason: asLoopError(error).message,
          },
          'thread reply not posted',
        );
      });

  /**
   * The attached files, fetched for an agent harness; a plain shell gets none, and the thread is
   * told why. `empty`: nothing is left to deliver (a shell sent only files).
   */
  const attachedFiles = async (
    message: SlackInboxMessage,
    ref: string,
    logger: Logger,
  ): Promise<{ empty: boolean; text: (decoded: string) => string }> => {
    const plain = { empty: false, text: (decoded: string) => decoded };
    const { sessionTarget, receiveFiles } = options;
    if (!message.files?.length || !sessionTarget || !receiveFiles) return plain;
    // A session that is not running fails the delivery with its remedy; nothing to fetch for it.
    const target = await sessionTarget(ref).catch(() => undefined);
    if (!target) return plain;
    if (!target.agent) {
      await reply(
        message,
        '📎 Files go to agent harnesses only: this session runs a plain shell, so the attached ' +
          'files were not passed on.',
        logger,
      );
      return { empty: message.text.trim() === '', text: plain.text };
    }
    const outcomes = await receiveFiles(message.files, message.ts, target.tmuxName);
    return { empty: false, text: (decoded) => withFileLines(decoded, outcomes) };
  };

  const handle = async (item: IntakeItem<SlackInboxMessage>): Promise<Handled<ThreadOutcome>> => {
    const { message, logger } = item;
    const binding = await bindings.find(message.channel, message.threadTs);
    if (!binding) return { outcome: 'unbound' };
    if (await options.permissionCommand?.(message, binding.ref)) {
      return { outcome: 'permission-answer' };
    }
    if (!readLive(options.authorizedUsers).includes(message.user)) {
      await callSlack(
        'chat.postEphemeral',
        () =>
          client.chat.postEphemeral({
            channel: message.channel,
            user: message.user,
            thread_ts: message.threadTs,
            text: `You are not authorized to talk to this session. An operator can add your Slack id \`${message.user}\` to \`slack.authorizedUsers\`.`,
          }),
        { logger, maxAttempts: 3 },
      ).catch((error: unknown) =>
        logger.warn(
          {
            event: 'slack.notice_failed',
            code: asLoopError(error).code,
            reason: asLoopError(error).message,
          },
          'notice not posted',
        ),
      );
      logger.info(
        { event: 'slack.unauthorized', user: message.user, ref: binding.ref },
        'unauthorized thread reply',
      );
      return { outcome: 'unauthorized' };
    }
    const command = parseThreadCommand(message.text);
    if (command) {
      await reply(message, await options.commands.run(binding.ref, command), logger);
      return { outcome: 'command' };
    }
    // eyes: seen. The hourglass only when the message is still waiting after a moment (queued
    // behind a turn, held by a dialog): a message that goes straight in never shows it.
    const seen = react(message, 'eyes', logger);
    let hourglass: Promise<void> | undefined;
    const queued = setTimeout(() => {
      hourglass = seen.then(() => react(message, 'hourglass_flowing_sand', logger));
    }, queuedAfterMs);
    // Reactions are for people: the next message in the lane does not wait for them.
    const settle = async (name: string): Promise<void> => {
      clearTimeout(queued);
      await seen;
      if (hourglass) {
        await hourglass;
        await unreact(message, 'hourglass_flowing_sand', logger);
      }
      await react(message, name, logger);
    };
    const files = await attachedFiles(message, binding.ref, logger);
    if (files.empty) {
      void settle('warning');
      return { outcome: 'nothing-to-deliver' };
    }
    const userNames = Object.fromEntries(
      await Promise.all(
        mentionedUserIds(message.text).map(async (id) => [id, await names.user(id)] as const),
      ),
    );
    try {
      const result = await delivery.deliver({
        ref: binding.ref,
        text: files.text(decodeSlackText(message.text, { users: userNames })),
        origin: {
          surface: 'slack',
          actor: await names.user(message.user),
          channel: await names.channel(message.channel),
        },
        ids: { slackEventId: message.eventId },
        ...submissionOf(item),
      });
      // Told once the entry is done: a crash after the reactions cannot type the message again.
      if (result.outcome === 'delivered') {
        return { outcome: 'delivered', tell: async () => void settle('white_check_mark') };
      }
      return {
        outcome: 'unconfirmed',
        tell: async () => {
          void settle('warning');
          await reply(
            message,
            '⚠️ Typed into the session, but the agent did not confirm it received the message. Check with `!status`.',
            logger,
          );
        },
      };
    } catch (error) {
      return {
        outcome: 'failed',
        tell: async () => {
          void settle('warning');
          await reply(message, `⚠️ Not delivered: ${asLoopError(error).message}`, logger);
        },
      };
    }
  };

  return handle;
}
