import { readLive, type Live } from '../config/live-config.js';
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { Permissions } from '../permissions/create-permissions.js';
import { decisionReply, mayDecide } from '../permissions/decisions.js';
import {
  parsePermissionId,
  type PermissionRequest,
  type PermissionVerdict,
} from '../permissions/permission-types.js';
import type { EventSink } from '../state/event-log.js';
import { createRecordStore } from '../state/record-store.js';
import { callSlack, threadSay } from './call-slack.js';
import { parsePermissionCommand } from './commands/parse-permission-command.js';
import type { SlackNames } from './create-slack-names.js';
import {
  permissionActions,
  permissionRequestMessage,
  permissionSettledMessage,
} from './permission-blocks.js';
import type { SlackInboxMessage } from './slack-inbox-message.js';
import { decodeSlackText } from './text/decode-slack-text.js';
import { escapeMrkdwn } from './text/escape-mrkdwn.js';
import type { ThreadBindings } from './thread-bindings.js';

export interface PermissionSlack {
  /** Handles `!allow` / `!deny` in a bound thread; false when the message is no such command. */
  threadCommand(message: SlackInboxMessage, ref: string): Promise<boolean>;
  /**
   * Messages of requests a crashed serve left open: their hooks are gone with it, so each is
   * updated to say the-loop restarted (a clean stop does this itself, through the registry).
   */
  recover(): Promise<number>;
}

/** Where a request's message is, kept on disk until the request ends. */
interface PostedRecord {
  readonly channel: string;
  readonly ts: string;
  readonly request: PermissionRequest;
}

function isPostedRecord(value: unknown): value is PostedRecord {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  const request = entry['request'] as Record<string, unknown> | null | undefined;
  return (
    typeof entry['channel'] === 'string' &&
    typeof entry['ts'] === 'string' &&
    typeof request?.['id'] === 'string' &&
    typeof request['tool'] === 'string' &&
    typeof request['summary'] === 'string'
  );
}

const verdictOf: Readonly<Record<string, PermissionVerdict>> = {
  [permissionActions.allow]: 'allow',
  [permissionActions['allow-always']]: 'allow-always',
  [permissionActions.deny]: 'deny',
};

/**
 * Permission requests in Slack (docs/design.md §14): a Block Kit message in the session's thread with
 * three buttons, handled through Bolt actions (Socket Mode and HTTP mode alike); only approvers
 * decide, others get an ephemeral refusal and the request stays open. When it ends, the message is
 * replaced by blocks without buttons that say who decided what, or why it expired.
 */
export function createPermissionSlack(options: {
  readonly app: App;
  readonly client: WebClient;
  readonly bindings: ThreadBindings;
  readonly permissions: Permissions;
  readonly names: SlackNames;
  /** Read at each decision, so a config reload applies at once. */
  readonly approvers: Live<readonly string[]>;
  /** The folder for PostedRecords (`<state.root>/permissions/slack`). */
  readonly dir: string;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly now?: () => number;
}): PermissionSlack {
  const { client, bindings, names, logger } = options;
  const { registry } = options.permissions;
  const now = options.now ?? Date.now;
  const store = createRecordStore({ dir: options.dir, validate: isPostedRecord, logger });
  const callOptions = { logger, maxAttempts: 4 };

  const warn = (event: string, error: unknown): void => {
    const failure = asLoopError(error);
    logger.warn({ event, code: failure.code, reason: failure.message }, 'permission message');
  };

  const ephemeral = (channel: string, user: string, text: string, threadTs?: string) =>
    callSlack(
      'chat.postEphemeral',
      () =>
        client.chat.postEphemeral({
          channel,
          user,
          text,
          ...(threadTs ? { thread_ts: threadTs } : {}),
        }),
      callOptions,
    ).catch((error: unknown) => warn('slack.permission_notice_failed', error));

  const threadReply = (channel: string, threadTs: string, text: string) =>
    threadSay(
      client,
      { channel, threadTs },
      callOptions,
    )(text).catch((error: unknown) => warn('slack.permission_reply_failed', error));

  options.permissions.follow({
    post: (request) =>
      (async () => {
        const binding = await bindings.forRef(request.ref);
        if (!binding) return undefined;
        const message = permissionRequestMessage(request);
        const ts = await threadSay(client, binding, callOptions)(message);
        if (!ts) return undefined;
        const where = { channel: binding.channel, ts };
        await store.write(request.id, { ...where, request });
        return where;
      })().catch((error: unknown) => {
        warn('slack.permission_post_failed', error);
        return undefined;
      }),
    settle: async (request, outcome, where) => {
      const message = permissionSettledMessage(request, outcome);
      await callSlack(
        'chat.update',
        () => client.chat.update({ channel: where.channel, ts: where.ts, ...message }),
        callOptions,
      ).catch((error: unknown) => warn('slack.permission_update_failed', error));
      await store.remove(request.id);
    },
  });

  const decider = async (user: string) => ({
    surface: 'slack' as const,
    name: `@${await names.user(user)}`,
  });
  const refusal = (user: string) =>
    `Only approvers can answer permission requests. An operator can add your Slack id \`${user}\` to \`slack.approvers\`.`;

  options.app.action(
    new RegExp(`^(${Object.keys(verdictOf).join('|')})$`),
    async ({ ack, action, body }) => {
      await ack();
      const raw = body as unknown as {
        user?: { id?: string };
        channel?: { id?: string };
        message?: { thread_ts?: string };
      };
      const user = raw.user?.id ?? '';
      const channel = raw.channel?.id ?? '';
      const threadTs = raw.message?.thread_ts;
      const { action_id: actionId, value } = action as { action_id?: string; value?: string };
      const verdict = verdictOf[actionId ?? ''];
      const id = parsePermissionId(value ?? '');
      if (!verdict || !id) return;
      if (!mayDecide('slack', readLive(options.approvers), user)) {
        logger.info({ event: 'slack.permission_refused', user, id }, 'not an approver');
        await ephemeral(channel, user, refusal(user), threadTs);
        return;
      }
      const result = registry.decide(id, verdict, await decider(user));
      if (result.kind !== 'decided') {
        await ephemeral(channel, user, escapeMrkdwn(decisionReply(result, id).text), threadTs);
      }
    },
  );

  return {
    async recover() {
      const left = await store.list();
      for (const { key, value } of left) {
        const { request } = value;
        const at = new Date(now()).toISOString();
        const message = permissionSettledMessage(request, {
          kind: 'expired',
          reason: 'restart',
          at,
        });
        await callSlack(
          'chat.update',
          () => client.chat.update({ channel: value.channel, ts: value.ts, ...message }),
          callOptions,
        ).catch((error: unknown) => warn('slack.permission_update_failed', error));
        options.events.record('permission.expired', {
          id: request.id,
          ref: request.ref,
          tool: request.tool,
          reason: 'restart',
        });
        await store.remove(key);
      }
      return left.length;
    },
    async threadCommand(message, ref) {
      const command = parsePermissionCommand(message.text);
      if (!command) return false;
      if (!mayDecide('slack', readLive(options.approvers), message.user)) {
        await ephemeral(message.channel, message.user, refusal(message.user), message.threadTs);
        return true;
      }
      const open = registry.openFor(ref);
      const id = command.id ?? (open.length === 1 ? open[0]?.id : undefined);
      if (!id) {
        const text =
          open.length === 0
            ? 'No permission request is open in this session.'
            : `${open.length} permission requests are open; name one: ${open
                .map((request) => `\`!${command.verdict} ${request.id}\``)
                .join(', ')}`;
        await threadReply(message.channel, message.threadTs, text);
        return true;
      }
      const known = registry.find(id);
      if (known && known.request.ref !== ref) {
        await threadReply(
          message.channel,
          message.threadTs,
          `${id} belongs to another session; answer it in that session's thread.`,
        );
        return true;
      }
      const reason = command.reason ? decodeSlackText(command.reason) : undefined;
      const result = registry.decide(id, command.verdict, await decider(message.user), reason);
      if (result.kind !== 'decided') {
        await threadReply(
          message.channel,
          message.threadTs,
          escapeMrkdwn(decisionReply(result, id).text),
        );
      }
      return true;
    },
  };
}
