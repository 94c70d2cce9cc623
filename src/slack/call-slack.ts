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
