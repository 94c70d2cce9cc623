import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import type { Logger as SlackLogger } from '@slack/logger';
import { SocketModeClient } from '@slack/socket-mode';
import type { Logger } from '../log/create-logger.js';

export interface SocketReceiver extends Receiver {
  readonly client: SocketModeClient;
}

/**
 * Takes an Events API body in before Bolt: returns a promise that settles once it is recorded
 * durably (the envelope may then be acknowledged), or undefined when it is not one to record and
 * Bolt should have it.
 */
export type SlackIntake = (body: Record<string, unknown>) => Promise<void> | undefined;

/**
 * Socket Mode. A thread reply is recorded in the inbox straight from the envelope and acknowledged
 * as soon as that write is durable; Bolt never sees it, so the ack waits for one group-committed
 * write rather than for Bolt's middleware run over every envelope of a burst (docs/design.md §9, §10).
 * Other Events API envelopes are acknowledged only after Bolt has run its listeners — Bolt's own
 * receiver acknowledges before, so a crash in between would lose them. Slash commands keep
 * Bolt's behaviour: the handler acknowledges with its answer.
 */
export function createSocketReceiver(options: {
  readonly appToken: string;
  readonly slackApiUrl?: string;
  readonly intake: SlackIntake;
  /**
   * A fleet instance hands every envelope to the fleet and acknowledges once it is safe there
   * (docs/design.md §21); the owner then handles it as if it had received it.
   */
  readonly forward?: (type: string, body: Record<string, unknown>) => Promise<void>;
  readonly logger: Logger;
  readonly slackLogger: SlackLogger;
}): SocketReceiver {
  const client = new SocketModeClient({
    appToken: options.appToken,
    logger: options.slackLogger,
    ...(options.slackApiUrl ? { clientOptions: { slackApiUrl: options.slackApiUrl } } : {}),
  });
  let app: App | undefined;

  const notRecorded = (error: unknown): void => {
    // Not acknowledged: Slack sends the event again, and the dedupe ledger drops what did get recorded.
    options.logger.error(
      { event: 'slack.event_not_recorded', err: error },
      'slack event not acknowledged',
    );
  };

  client.on('slack_event', async (args: SlackEventArgs) => {
    if (!app) return;
    if (options.forward) {
      try {
        await options.forward(args.type, args.body);
        await args.ack();
      } catch (error) {
        notRecorded(error);
      }
      return;
    }
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
      const recording = options.intake(args.body);
      if (recording) await recording;
      else await app.processEvent({ ...base, ack: async () => undefined } as ReceiverEvent);
      await args.ack();
    } catch (error) {
      notRecorded(error);
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
