import { setTimeout as delay } from 'node:timers/promises';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { githubErrorFacts, githubRetryDelay } from './github-retry-delay.js';

/** Runs a GitHub API call with retries for server errors and rate limits; what still fails is a LoopError. */
export async function callGithub<T>(
  what: string,
  call: () => Promise<T>,
  options: { logger: Logger; maxAttempts?: number; sleep?: (ms: number) => Promise<unknown> },
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 4;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const facts = githubErrorFacts(error);
      const wait = githubRetryDelay(facts, attempt, maxAttempts, Date.now());
      if (wait === undefined) {
        throw new LoopError(
          'github_failed',
          `GitHub ${what} failed (${facts.status ?? 'no answer'})`,
          {
            status: facts.status,
          },
        );
      }
      options.logger.warn(
        { event: 'github.retry', call: what, attempt, waitMs: wait, status: facts.status },
        'retrying GitHub call',
      );
      await sleep(wait);
    }
  }
}
