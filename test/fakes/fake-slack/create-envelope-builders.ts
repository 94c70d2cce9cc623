import { randomUUID } from 'node:crypto';
import type { SocketEnvelope } from './attach-socket-server.js';
import type { SlackEvent } from './create-event-builders.js';
import type { FakeSlackIdentity } from './fake-slack-identity.js';

export interface EventsApiOptions {
  /** Reuse an event id to model Slack redelivering the same event. */
  readonly eventId?: string;
  readonly retryAttempt?: number;
  readonly retryReason?: string;
}

export interface SlashCommandArgs {
  readonly command: string;
  readonly text: string;
  readonly user_id: string;
  readonly channel_id: string;
  readonly user_name?: string;
  readonly channel_name?: string;
}

export interface BlockActionArgs {
  /** Who clicked. */
  readonly user: string;
  readonly channel: string;
  /** The message holding the button, and the thread it sits in. */
  readonly messageTs: string;
  readonly threadTs?: string;
  readonly actionId: string;
  readonly value: string;
  readonly blockId?: string;
}

/**
 * What Slack delivers for an event or a slash command: as a Socket Mode envelope, or as the HTTP
 * body it POSTs in HTTP mode (JSON for events, form-encoded for commands; sign it with
 * `signSlackRequest`). Each command gets a `response_url` on the fake, so `respond()` is recorded.
 */
export function createEnvelopeBuilders(
  identity: FakeSlackIdentity,
  baseUrl: string,
  now: () => number,
) {
  let eventCount = 0;
  let commandCount = 0;
  let actionCount = 0;

  /** A `block_actions` interaction as Slack documents it: a button click on a bot message. */
  function blockActions(args: BlockActionArgs) {
    actionCount += 1;
    const actionTs = `${Math.floor(now() / 1000)}.${String(actionCount).padStart(6, '0')}`;
    return {
      type: 'block_actions',
      user: {
        id: args.user,
        username: identity.users[args.user]?.name ?? args.user.toLowerCase(),
        name: identity.users[args.user]?.name ?? args.user.toLowerCase(),
        team_id: identity.teamId,
      },
      api_app_id: identity.apiAppId,
      token: identity.verificationToken,
      container: {
        type: 'message',
        message_ts: args.messageTs,
        channel_id: args.channel,
        is_ephemeral: false,
        ...(args.threadTs ? { thread_ts: args.threadTs } : {}),
      },
      trigger_id: `${actionCount}.${identity.teamId}.fake-action-trigger`,
      team: { id: identity.teamId, domain: identity.teamDomain },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: args.channel, name: `channel-${args.channel.toLowerCase()}` },
      message: {
        type: 'message',
        user: identity.botUserId,
        bot_id: identity.botId,
        ts: args.messageTs,
        ...(args.threadTs ? { thread_ts: args.threadTs } : {}),
        text: '',
      },
      state: { values: {} },
      response_url: `${baseUrl}/response/action-${actionCount}`,
      actions: [
        {
          action_id: args.actionId,
          block_id: args.blockId ?? 'actions',
          text: { type: 'plain_text', text: args.actionId, emoji: true },
          value: args.value,
          type: 'button',
          action_ts: actionTs,
        },
      ],
    };
  }

  function eventCallback(event: SlackEvent, options: EventsApiOptions = {}) {
    eventCount += 1;
    return {
      token: identity.verificationToken,
      team_id: identity.teamId,
      api_app_id: identity.apiAppId,
      event,
      type: 'event_callback',
      event_id: options.eventId ?? `Ev0FAKE${String(eventCount).padStart(6, '0')}`,
      event_time: Math.floor(now() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: identity.teamId,
          user_id: identity.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
  }

  function slashCommand(args: SlashCommandArgs): Record<string, string> {
    commandCount += 1;
    return {
      token: identity.verificationToken,
      team_id: identity.teamId,
      team_domain: identity.teamDomain,
      channel_id: args.channel_id,
      channel_name: args.channel_name ?? `channel-${args.channel_id.toLowerCase()}`,
      user_id: args.user_id,
      user_name: args.user_name ?? identity.users[args.user_id]?.name ?? args.user_id.toLowerCase(),
      command: args.command,
      text: args.text,
      api_app_id: identity.apiAppId,
      is_enterprise_install: 'false',
      response_url: `${baseUrl}/response/command-${commandCount}`,
      trigger_id: `${commandCount}.${identity.teamId}.fake-trigger`,
    };
  }

  return {
    eventsApiEnvelope(event: SlackEvent, options: EventsApiOptions = {}): SocketEnvelope {
      return {
        envelope_id: randomUUID(),
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: options.retryAttempt ?? 0,
        retry_reason: options.retryReason ?? '',
        payload: eventCallback(event, options),
      };
    },
    slashCommandEnvelope(args: SlashCommandArgs): SocketEnvelope {
      return {
        envelope_id: randomUUID(),
        type: 'slash_commands',
        accepts_response_payload: true,
        payload: slashCommand(args),
      };
    },
    blockActionsEnvelope(args: BlockActionArgs): SocketEnvelope {
      return {
        envelope_id: randomUUID(),
        type: 'interactive',
        accepts_response_payload: false,
        payload: blockActions(args),
      };
    },
    /** HTTP mode posts interactions form-encoded, the JSON in one `payload` field. */
    blockActionsHttpBody(args: BlockActionArgs): string {
      return new URLSearchParams({ payload: JSON.stringify(blockActions(args)) }).toString();
    },
    eventsApiHttpBody(event: SlackEvent, options: EventsApiOptions = {}): string {
      return JSON.stringify(eventCallback(event, options));
    },
    slashCommandHttpBody(args: SlashCommandArgs): string {
      return new URLSearchParams(slashCommand(args)).toString();
    },
  };
}
