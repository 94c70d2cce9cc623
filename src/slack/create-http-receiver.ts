import { HTTPReceiver, type App, type Receiver } from '@slack/bolt';
import type { Logger as SlackLogger } from '@slack/logger';
import type { RequestListener } from 'node:http';
import { isSlackTimestampCurrent } from './check-slack-timestamp.js';

/**
 * HTTP mode: Bolt's receiver checks signatures and timestamps (401 otherwise); the-loop's shared
 * http listener serves it at `/slack/events`. With processBeforeResponse the answer to Slack waits
 * for the listeners, which record the message in the inbox first (DESIGN §9). A timestamp outside
 * the window either way is refused here before Bolt sees the request.
 */
export function createHttpReceiver(options: {
  readonly signingSecret: string;
  readonly slackLogger: SlackLogger;
  readonly now?: () => number;
}): { receiver: Receiver; requestListener: RequestListener } {
  const now = options.now ?? Date.now;
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
    requestListener: (request, response) => {
      const stamp = request.headers['x-slack-request-timestamp'];
      if (!isSlackTimestampCurrent(typeof stamp === 'string' ? stamp : undefined, now())) {
        options.slackLogger.warn('refused a Slack request whose timestamp is outside five minutes');
        request.resume();
        response.writeHead(401, { 'content-type': 'text/plain' }).end();
        return;
      }
      inner.requestListener(request, response);
    },
  };
}
