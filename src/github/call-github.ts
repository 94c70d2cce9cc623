import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { retryCall } from '../retry/retry-call.js';
import { githubErrorFacts, githubRetryDelay } from './github-retry-delay.js';

/** Runs a GitHub API call with retries for server errors and rate limits; what still fails is a LoopError. */
export async function callGithub<T>(
  what: string,
  call: () => Promise<T>,
  options: { logger: Logger; maxAttempts?: number; sleep?: (ms: number) => Promise<unknown> },
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 4;
  return retryCall(
    call,
    (error, attempt) => {
      const facts = githubErrorFacts(error);
      return {
        waitMs: githubRetryDelay(facts, attempt, maxAttempts, Date.now()),
        fields: { call: what, status: facts.status },
        failure: () =>
          new LoopError('github_failed', `GitHub ${what} failed (${facts.status ?? 'no answer'})`, {
            status: facts.status,
          }),
      };
    },
    {
      logger: options.logger,
      event: 'github.retry',
      ...(options.sleep ? { sleep: options.sleep } : {}),
    },
  );
}
