import { randomUUID } from 'node:crypto';
import type { FakeSlackIdentity } from './fake-slack-identity.js';

/** An Events API `event` object: always a `type`, a channel and a ts, the rest as Slack sends it. */
export interface SlackEvent {
  readonly type: string;
  readonly channel: string;
  readonly ts: string;
  readonly event_ts: string;
  readonly [key: string]: unknown;
}

export interface MessageEventArgs {
  readonly channel: string;
  readonly user: string;
  readonly text: string;
  /** The message's own ts; a fresh one when left out. For an edit or deletion, the original's. */
  readonly ts?: string;
  readonly threadTs?: string;
  readonly botId?: string;
  /** e.g. `bot_message`, `message_changed` (needs `previousText`), `message_deleted`. */
  readonly subtype?: string;
  readonly previousText?: string;
  readonly channelType?: 'channel' | 'group' | 'im' | 'mpim';
  /** Shared files (from `addFile`); give `subtype: 'file_share'` as Slack does. */
  readonly files?: readonly Record<string, unknown>[];
}

export type AppMentionEventArgs = Omit<
  MessageEventArgs,
  'botId' | 'subtype' | 'previousText' | 'channelType' | 'files'
>;

/**
 * `message` and `app_mention` events shaped as in Slack's Events API documentation. A message that
 * mentions the bot arrives twice; build the pair from one mention:
 * `const mention = appMentionEvent(...); messageEvent({ ...args, text: mention.text, ts: mention.ts })`.
 */
export function createEventBuilders(identity: FakeSlackIdentity, nextTs: () => string) {
  function messageEvent(args: MessageEventArgs): SlackEvent {
    const ts = args.ts ?? nextTs();
    const thread = args.threadTs === undefined ? {} : { thread_ts: args.threadTs };
    const where = { channel: args.channel, channel_type: args.channelType ?? 'channel' };
    const original = { type: 'message', user: args.user, text: args.text, ts, ...thread };
    if (args.subtype === 'message_changed' || args.subtype === 'message_deleted') {
      const eventTs = nextTs();
      const previous = { ...original, text: args.previousText ?? args.text };
      const change =
        args.subtype === 'message_changed'
          ? { message: { ...original, edited: { user: args.user, ts: eventTs } } }
          : { deleted_ts: ts };
      return {
        type: 'message',
        subtype: args.subtype,
        hidden: true,
        ...where,
        ts: eventTs,
        event_ts: eventTs,
        ...change,
        previous_message: previous,
      };
    }
    return {
      ...original,
      ...(args.botId === undefined ? { client_msg_id: randomUUID() } : { bot_id: args.botId }),
      ...(args.subtype === undefined ? {} : { subtype: args.subtype }),
      ...(args.files === undefined ? {} : { files: args.files, upload: false }),
      team: identity.teamId,
      ...where,
      event_ts: ts,
    };
  }

  function appMentionEvent(args: AppMentionEventArgs): SlackEvent {
    const ts = args.ts ?? nextTs();
    const mention = `<@${identity.botUserId}>`;
    const text = args.text.startsWith(mention) ? args.text : `${mention} ${args.text}`;
    return {
      type: 'app_mention',
      client_msg_id: randomUUID(),
      user: args.user,
      text,
      ts,
      team: identity.teamId,
      channel: args.channel,
      ...(args.threadTs === undefined ? {} : { thread_ts: args.threadTs }),
      event_ts: ts,
    };
  }

  return { messageEvent, appMentionEvent };
}
