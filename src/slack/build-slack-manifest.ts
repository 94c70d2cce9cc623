import type { Config } from '../config/types.js';

/** The parts of a Slack app manifest (schema version 1) that the-loop fills in. */
export interface SlackManifest {
  readonly display_information: { readonly name: string; readonly description: string };
  readonly features: {
    readonly bot_user: { readonly display_name: string; readonly always_online: boolean };
    readonly slash_commands: readonly {
      readonly command: string;
      readonly description: string;
      readonly usage_hint: string;
      readonly should_escape: boolean;
    }[];
  };
  readonly oauth_config: { readonly scopes: { readonly bot: readonly string[] } };
  readonly settings: {
    readonly event_subscriptions: { readonly bot_events: readonly string[] };
    readonly interactivity: { readonly is_enabled: boolean };
    readonly org_deploy_enabled: boolean;
    readonly socket_mode_enabled: boolean;
    readonly token_rotation_enabled: boolean;
  };
}

/** Slack refuses an app name longer than this. */
const maxAppNameLength = 35;

const botScopes = [
  'chat:write',
  'reactions:write',
  'channels:history',
  'groups:history',
  'im:history',
  'app_mentions:read',
  'commands',
  'users:read',
  // conversations.info: the channel name in a message's frame.
  'channels:read',
  'groups:read',
  // Files people attach in a thread reach the agent; files the agent posts reach the thread (§15).
  'files:read',
  'files:write',
] as const;

const botEvents = ['message.channels', 'message.groups', 'message.im', 'app_mention'] as const;

/**
 * The Slack app for one instance (docs/design.md §6). Each instance needs an app of its own, because Socket
 * Mode hands each event to one connection only: two instances on one app would each miss about
 * half. So the app is named after the instance and carries the instance's slash command.
 */
export function buildSlackManifest(config: Config): SlackManifest {
  const instance = config.instance.name;
  const fullName = instance === '' ? 'the-loop' : `the-loop-${instance}`;
  const appName = fullName.slice(0, maxAppNameLength).replace(/-+$/, '');
  const where = instance === '' ? '' : ` on ${instance}`;
  return {
    display_information: {
      name: appName,
      description: `AI coding agents in tmux${where}: talk to them in their Slack threads`,
    },
    features: {
      bot_user: { display_name: fullName, always_online: true },
      slash_commands: [
        {
          command: config.slack.command,
          description: `Create, list and control the-loop's sessions${where}`,
          usage_hint:
            'create NAME [harness=H] [cwd=DIR] [brief…] | delete | list | start | stop | restart | status | help',
          should_escape: false,
        },
      ],
    },
    oauth_config: { scopes: { bot: [...botScopes] } },
    settings: {
      event_subscriptions: { bot_events: [...botEvents] },
      // The permission buttons (docs/design.md §14). Socket Mode needs no URL; in HTTP mode Slack posts
      // the clicks to the same /slack/events URL as the events, set in the app's settings.
      interactivity: { is_enabled: true },
      org_deploy_enabled: false,
      socket_mode_enabled: true,
      token_rotation_enabled: false,
    },
  };
}
