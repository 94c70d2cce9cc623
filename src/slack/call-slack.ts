import type { MessageMetadata, WebClient } from '@slack/web-api';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { retryCall } from '../retry/retry-call.js';
import { slackErrorFacts, slackRetryDelay } from './slack-retry-delay.js';

export interface CallSlackOptions {
  readonly logger: Logger;
  readonly maxAttempts?: number;
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Runs a Web API call, retrying rate limits (after Retry-After) and transient failures with
 * backoff. What still fails is thrown as a LoopError naming the Slack error: never dropped quietly.
 */
export async function callSlack<T>(
  what: string,
  call: () => Promise<T>,
  options: CallSlackOptions,
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 6;
  return retryCall(
    call,
    (error, attempt) => {
      const facts = slackErrorFacts(error);
      const reason =
        facts.platformError ?? facts.code ?? (error instanceof Error ? error.message : 'unknown');
      return {
        waitMs: slackRetryDelay(facts, attempt, maxAttempts),
        fields: { call: what, reason },
        failure: () =>
          new LoopError('slack_failed', `Slack ${what} failed: ${reason}`, { slackError: reason }),
      };
    },
    {
      logger: options.logger,
      event: 'slack.retry',
      ...(options.sleep ? { sleep: options.sleep } : {}),
    },
  );
}

/** One thread of a channel: where a reply goes. A thread binding is one. */
export interface SlackThread {
  readonly channel: string;
  readonly threadTs: string;
}

/** A reply beyond plain text: blocks, link previews off, metadata naming what kind it is. */
export interface ThreadMessage {
  readonly text: string;
  readonly blocks?: Record<string, unknown>[];
  readonly unfurl_links?: boolean;
  readonly unfurl_media?: boolean;
  readonly metadata?: MessageMetadata;
}

/** Posts into the thread it was made for; resolves with the ts of the posted message. */
export type ThreadSay = (message: string | ThreadMessage) => Promise<string | undefined>;

/**
 * A reply function bound to one thread, as bolt's `say` is bound to a channel: every reply the-loop
 * posts into a thread goes through it, by `chat.postMessage` with callSlack's retries. A failure
 * is thrown (a LoopError); the caller decides whether a lost reply is worth a warning or an error.
 */
export function threadSay(
  client: WebClient,
  thread: SlackThread,
  options: CallSlackOptions,
): ThreadSay {
  return async (message) => {
    const fields = typeof message === 'string' ? { text: message } : message;
    const posted = await callSlack(
      'chat.postMessage',
      () =>
        client.chat.postMessage({ channel: thread.channel, thread_ts: thread.threadTs, ...fields }),
      options,
    );
    return typeof posted.ts === 'string' ? posted.ts : undefined;
  };
}
