import type { FakeSlackIdentity } from './fake-slack-identity.js';
import type { FileStore } from './create-file-store.js';
import type { ApiArgs } from './parse-api-body.js';

export type ApiReply = { readonly ok: boolean; readonly [key: string]: unknown };
export type ApiMethod = (args: ApiArgs) => ApiReply;

const fail = (error: string): ApiReply => ({ ok: false, error });
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The Web API methods the-loop calls, with just enough state to answer as Slack does: messages the
 * bot posted (so `chat.update` can miss) and reactions (so adding one twice is `already_reacted`).
 */
export function createWebApiMethods(
  identity: FakeSlackIdentity,
  nextTs: () => string,
  openSocketUrl: () => string,
  files?: FileStore,
): Readonly<Record<string, ApiMethod>> {
  const messages = new Map<string, Record<string, unknown>>();
  const reactions = new Set<string>();
  const hasContent = (args: ApiArgs) =>
    text(args.text) !== undefined || args.blocks !== undefined || args.attachments !== undefined;

  function reactionKey(args: ApiArgs): string | ApiReply {
    const channel = text(args.channel);
    if (channel === undefined) return fail('channel_not_found');
    if (text(args.timestamp) === undefined) return fail('bad_timestamp');
    if (text(args.name) === undefined) return fail('invalid_name');
    return `${channel}/${String(args.timestamp)}/${String(args.name)}`;
  }

  return {
    'auth.test': () => ({
      ok: true,
      url: `https://${identity.teamDomain}.slack.com/`,
      team: 'Fake Workspace',
      user: 'the-loop',
      team_id: identity.teamId,
      user_id: identity.botUserId,
      bot_id: identity.botId,
      is_enterprise_install: false,
    }),
    'apps.connections.open': () => ({ ok: true, url: openSocketUrl() }),
    'chat.postMessage': (args) => {
      const channel = text(args.channel);
      if (channel === undefined) return fail('channel_not_found');
      if (!hasContent(args)) return fail('no_text');
      const ts = nextTs();
      const message = {
        type: 'message',
        user: identity.botUserId,
        bot_id: identity.botId,
        app_id: identity.apiAppId,
        team: identity.teamId,
        text: args.text ?? '',
        ts,
        ...(text(args.thread_ts) === undefined ? {} : { thread_ts: args.thread_ts }),
        ...(args.blocks === undefined ? {} : { blocks: args.blocks }),
      };
      messages.set(`${channel}/${ts}`, message);
      return { ok: true, channel, ts, message };
    },
    'chat.postEphemeral': (args) => {
      if (text(args.channel) === undefined) return fail('channel_not_found');
      if (text(args.user) === undefined) return fail('user_not_in_channel');
      if (!hasContent(args)) return fail('no_text');
      return { ok: true, message_ts: nextTs() };
    },
    'chat.update': (args) => {
      const key = `${String(args.channel)}/${String(args.ts)}`;
      const previous = messages.get(key);
      if (previous === undefined) return fail('message_not_found');
      // As in Slack, an update that leaves out a field keeps the message's previous one.
      const message = {
        ...previous,
        ...(args.text === undefined ? {} : { text: args.text }),
        ...(args.blocks === undefined ? {} : { blocks: args.blocks }),
      };
      messages.set(key, message);
      return { ok: true, channel: args.channel, ts: args.ts, text: message.text, message };
    },
    'chat.delete': (args) => {
      const key = `${String(args.channel)}/${String(args.ts)}`;
      if (!messages.delete(key)) return fail('message_not_found');
      return { ok: true, channel: args.channel, ts: args.ts };
    },
    'files.getUploadURLExternal': (args) => {
      const filename = text(args.filename);
      const length = Number(args.length);
      if (filename === undefined) return fail('invalid_arguments');
      if (!Number.isInteger(length) || length < 1) return fail('invalid_arguments');
      if (files === undefined) return fail('unknown_method');
      return { ok: true, ...files.startUpload(filename, length) };
    },
    'files.completeUploadExternal': (args) => {
      if (files === undefined) return fail('unknown_method');
      const list = Array.isArray(args.files)
        ? (args.files as { id: string; title?: string }[])
        : [];
      if (list.length === 0) return fail('invalid_arguments');
      if (text(args.thread_ts) !== undefined && text(args.channel_id) === undefined) {
        return fail('invalid_arguments');
      }
      const channelId = text(args.channel_id);
      const threadTs = text(args.thread_ts);
      const initialComment = text(args.initial_comment);
      return files.complete(list, {
        ...(channelId === undefined ? {} : { channelId }),
        ...(threadTs === undefined ? {} : { threadTs }),
        ...(initialComment === undefined ? {} : { initialComment }),
      });
    },
    'reactions.add': (args) => {
      const key = reactionKey(args);
      if (typeof key !== 'string') return key;
      if (reactions.has(key)) return fail('already_reacted');
      reactions.add(key);
      return { ok: true };
    },
    'reactions.remove': (args) => {
      const key = reactionKey(args);
      if (typeof key !== 'string') return key;
      return reactions.delete(key) ? { ok: true } : fail('no_reaction');
    },
    'users.info': (args) => {
      const id = text(args.user);
      if (id === identity.botUserId) {
        return { ok: true, user: { id, team_id: identity.teamId, name: 'the-loop', is_bot: true } };
      }
      const user = id === undefined ? undefined : identity.users[id];
      if (id === undefined || user === undefined) return fail('user_not_found');
      const realName = user.real_name ?? user.name;
      const profile = { real_name: realName, display_name: user.name };
      return {
        ok: true,
        user: {
          id,
          team_id: identity.teamId,
          name: user.name,
          real_name: realName,
          is_bot: false,
          profile,
        },
      };
    },
    'conversations.info': (args) => {
      const id = text(args.channel);
      if (id === undefined) return fail('channel_not_found');
      const channel = {
        id,
        name: `channel-${id.toLowerCase()}`,
        is_channel: id.startsWith('C'),
        is_private: id.startsWith('G'),
        is_im: id.startsWith('D'),
        is_member: true,
      };
      return { ok: true, channel };
    },
  };
}
