import { setTimeout as delay } from 'node:timers/promises';
import type { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';

/** What to do about one failed attempt: wait and try again, or give up with a LoopError. */
export interface RetryJudgement {
  /** undefined: give up. */
  readonly waitMs: number | undefined;
  /** Logged with each retry (never secrets or message text). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly failure: () => LoopError;
}

/**
 * The one retry loop behind every call to an outside API: the caller's judgement decides per
 * failure, each retry is logged under the caller's event name, and what still fails is thrown as
 * the caller's LoopError — never dropped quietly.
 */
export async function retryCall<T>(
  call: () => Promise<T>,
  judge: (error: unknown, attempt: number) => RetryJudgement,
  options: {
    readonly logger: Logger;
    readonly event: string;
    readonly sleep?: (ms: number) => Promise<unknown>;
  },
): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const judgement = judge(error, attempt);
      if (judgement.waitMs === undefined) throw judgement.failure();
      options.logger.warn(
        { event: options.event, attempt, waitMs: judgement.waitMs, ...judgement.fields },
        'retrying a failed call',
      );
      await sleep(judgement.waitMs);
    }
  }
}
