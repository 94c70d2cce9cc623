import {
  HTTPModuleFunctions,
  HTTPReceiver,
  isValidSlackRequest,
  type App,
  type Receiver,
} from '@slack/bolt';
import type { Logger as SlackLogger } from '@slack/logger';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from '../log/create-logger.js';
import { isSlackTimestampCurrent } from './check-slack-timestamp.js';
import type { SlackIntake } from './create-socket-receiver.js';
import { isRecord } from '../guards.js';

/**
 * HTTP mode: the-loop's shared http listener serves it at `/slack/events`. A signed Events API
 * request carrying a thread reply is recorded in the inbox straight from its body and answered
 * 200 once that write is durable, before Bolt (docs/design.md §9, §10); a failed write answers 500 so
 * Slack sends it again. Everything else goes to Bolt's receiver, which checks signatures (401
 * otherwise) and, with processBeforeResponse, answers only after its listeners ran. A timestamp
 * outside the window either way is refused here before anything reads the body.
 */
export function createHttpReceiver(options: {
  readonly signingSecret: string;
  readonly intake: SlackIntake;
  /**
   * In a fleet: a signed slash command or click goes to the fleet as Socket Mode would give it
   * (`slash_commands`, `interactive`), answered 200 once it is safe there (docs/design.md §21).
   */
  readonly forward?: (
    type: 'slash_commands' | 'interactive',
    body: Record<string, unknown>,
  ) => Promise<void>;
  readonly logger: Logger;
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

  const isSigned = (request: IncomingMessage, raw: string): boolean => {
    const signature = request.headers['x-slack-signature'];
    const stamp = request.headers['x-slack-request-timestamp'];
    if (typeof signature !== 'string') return false;
    return isValidSlackRequest({
      signingSecret: options.signingSecret,
      body: raw,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(stamp) },
    });
  };

  /** The Events API body of a correctly signed JSON request, or undefined. */
  const signedBody = (
    request: IncomingMessage,
    raw: string,
  ): Record<string, unknown> | undefined => {
    const type = request.headers['content-type'] ?? '';
    if (!type.startsWith('application/json') || !isSigned(request, raw)) return undefined;
    try {
      const body = JSON.parse(raw) as unknown;
      return isRecord(body) ? body : undefined;
    } catch {
      // Malformed JSON: Bolt answers it (400) below.
      return undefined;
    }
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let raw: string;
    try {
      // Bolt reads the buffered body from here (rawBody) instead of the spent stream.
      raw = (
        await HTTPModuleFunctions.bufferIncomingMessage(
          request,
          HTTPModuleFunctions.defaultBodyLimit,
        )
      ).rawBody.toString();
    } catch (error) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
      response.writeHead(tooLarge ? 413 : 400).end();
      return;
    }
    const body = signedBody(request, raw);
    const form = options.forward && !body ? signedForm(request, raw) : undefined;
    if (form && options.forward) {
      await answerOnce(response, options.forward(form.type, form.body));
      return;
    }
    const recording = body ? options.intake(body) : undefined;
    if (!recording) {
      inner.requestListener(request, response);
      return;
    }
    await answerOnce(response, recording);
  };

  /** 200 once `safe` resolves; 500 (Slack may send it again) when it fails. */
  const answerOnce = async (response: ServerResponse, safe: Promise<void>): Promise<void> => {
    try {
      await safe;
      response.writeHead(200).end();
    } catch (error) {
      options.logger.error(
        { event: 'slack.event_not_recorded', err: error },
        'slack event not acknowledged',
      );
      response.writeHead(500).end();
    }
  };

  /** A correctly signed slash command or interaction (form-encoded), as Socket Mode gives it. */
  const signedForm = (
    request: IncomingMessage,
    raw: string,
  ): { type: 'slash_commands' | 'interactive'; body: Record<string, unknown> } | undefined => {
    const type = request.headers['content-type'] ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded') || !isSigned(request, raw))
      return undefined;
    const params = new URLSearchParams(raw);
    const payload = params.get('payload');
    if (payload === null) {
      return params.has('command')
        ? { type: 'slash_commands', body: Object.fromEntries(params) }
        : undefined;
    }
    try {
      const body = JSON.parse(payload) as unknown;
      return isRecord(body) ? { type: 'interactive', body } : undefined;
    } catch {
      // Malformed: Bolt answers it below.
      return undefined;
    }
  };

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
      void serve(request, response);
    },
  };
}
