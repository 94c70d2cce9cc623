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
    eventsApiHttpBody(event: SlackEvent, options: EventsApiOptions = {}): string {
      return JSON.stringify(eventCallback(event, options));
    },
    slashCommandHttpBody(args: SlashCommandArgs): string {
      return new URLSearchParams(slashCommand(args)).toString();
    },
  };
}
