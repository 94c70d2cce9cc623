import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import type { Logger as SlackLogger } from '@slack/logger';
import { SocketModeClient } from '@slack/socket-mode';
import type { Logger } from '../log/create-logger.js';

export interface SocketReceiver extends Receiver {
  readonly client: SocketModeClient;
}

/**
 * Socket Mode, acknowledging an Events API envelope only after Bolt has run its listeners — which
 * record the message in the inbox. Bolt's own receiver acknowledges events before listeners run,
 * so a crash in between would lose an acknowledged message (DESIGN §9). Slash commands keep
 * Bolt's behaviour: the handler acknowledges with its answer.
 */
export function createSocketReceiver(options: {
  readonly appToken: string;
  readonly slackApiUrl?: string;
  readonly logger: Logger;
  readonly slackLogger: SlackLogger;
}): SocketReceiver {
  const client = new SocketModeClient({
    appToken: options.appToken,
    logger: options.slackLogger,
    ...(options.slackApiUrl ? { clientOptions: { slackApiUrl: options.slackApiUrl } } : {}),
  });
  let app: App | undefined;

  client.on('slack_event', async (args: SlackEventArgs) => {
    if (!app) return;
    const base = {
      body: args.body,
      ...(args.retry_num !== undefined ? { retryNum: args.retry_num } : {}),
      ...(args.retry_reason !== undefined ? { retryReason: args.retry_reason } : {}),
    };
    if (args.type !== 'events_api') {
      await app.processEvent({
        ...base,
        ack: async (response?: unknown) => args.ack(response),
      } as ReceiverEvent);
      return;
    }
    try {
      await app.processEvent({ ...base, ack: async () => undefined } as ReceiverEvent);
      await args.ack();
    } catch (error) {
      // Not acknowledged: Slack sends the event again, and the inbox dedupes what did get recorded.
      options.logger.error(
        { event: 'slack.event_not_recorded', err: error },
        'slack event not acknowledged',
      );
    }
  });

  return {
    client,
    init(bolt: App) {
      app = bolt;
    },
    async start() {
      return client.start();
    },
    async stop() {
      // Disconnect first: App.stop() does not wait for the socket, and a test process would linger.
      await client.disconnect();
    },
  };
}

interface SlackEventArgs {
  readonly type: string;
  readonly body: Record<string, unknown>;
  readonly ack: (response?: unknown) => Promise<void>;
  readonly retry_num?: number;
  readonly retry_reason?: string;
}
