/**
 * How an injected failure looks on the wire: a 429 with Retry-After (Slack's rate limit), a bare
 * HTTP 500, or HTTP 200 carrying `{ ok: false, error }` — the three shapes a Slack client must
 * tell apart.
 */
export type FakeFailure =
  | { readonly status: 429; readonly retryAfterSeconds: number }
  | { readonly status: 500 }
  | { readonly okFalse: string };

export interface FailurePlan {
  failNext(method: string, failure: FakeFailure, times?: number): void;
  /** Until stopped, every call to `method` is a 429 with this Retry-After (a rate-limit storm). */
  storm(method: string, retryAfterSeconds: number): void;
  stopStorm(method: string): void;
  /** The failure planned for this call to `method`, used up as it is taken. */
  take(method: string): FakeFailure | undefined;
  reset(): void;
}

export function createFailurePlan(): FailurePlan {
  const queues = new Map<string, FakeFailure[]>();
  const storms = new Map<string, number>();
  return {
    storm(method, retryAfterSeconds) {
      storms.set(method, retryAfterSeconds);
    },
    stopStorm(method) {
      storms.delete(method);
    },
    failNext(method, failure, times = 1) {
      const queue = queues.get(method) ?? [];
      for (let i = 0; i < times; i += 1) queue.push(failure);
      queues.set(method, queue);
    },
    take(method) {
      const storm = storms.get(method);
      if (storm !== undefined) return { status: 429, retryAfterSeconds: storm };
      return queues.get(method)?.shift();
    },
    reset() {
      queues.clear();
      storms.clear();
    },
  };
}
