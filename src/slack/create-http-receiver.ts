import { HTTPReceiver, type App, type Receiver } from '@slack/bolt';
import type { Logger as SlackLogger } from '@slack/logger';
import type { RequestListener } from 'node:http';

/**
 * HTTP mode: Bolt's receiver checks signatures and timestamps (401 otherwise); the-loop's shared
 * http listener serves it at `/slack/events`. With processBeforeResponse the answer to Slack waits
 * for the listeners, which record the message in the inbox first (DESIGN §9).
 */
export function createHttpReceiver(options: {
  readonly signingSecret: string;
  readonly slackLogger: SlackLogger;
}): { receiver: Receiver; requestListener: RequestListener } {
  const inner = new HTTPReceiver({
    signingSecret: options.signingSecret,
    processBeforeResponse: true,
    endpoints: ['/slack/events'],
    logger: options.slackLogger,
  });
  return {
    receiver: {
      init: (app: App) => inner.init(app),
      start: async () => undefined,
      stop: async () => undefined,
    },
    requestListener: inner.requestListener,
  };
}
