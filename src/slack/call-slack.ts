import { setTimeout as delay } from 'node:timers/promises';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
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
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const facts = slackErrorFacts(error);
      const wait = slackRetryDelay(facts, attempt, maxAttempts);
      const reason =
        facts.platformError ?? facts.code ?? (error instanceof Error ? error.message : 'unknown');
      if (wait === undefined) {
        throw new LoopError('slack_failed', `Slack ${what} failed: ${reason}`, {
          slackError: reason,
        });
      }
      options.logger.warn(
        { event: 'slack.retry', call: what, attempt, waitMs: wait, reason },
        'retrying Slack call',
      );
      await sleep(wait);
    }
  }
}
