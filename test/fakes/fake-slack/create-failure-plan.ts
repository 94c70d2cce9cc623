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
  /** The failure planned for this call to `method`, used up as it is taken. */
  take(method: string): FakeFailure | undefined;
  reset(): void;
}

export function createFailurePlan(): FailurePlan {
  const queues = new Map<string, FakeFailure[]>();
  return {
    failNext(method, failure, times = 1) {
      const queue = queues.get(method) ?? [];
      for (let i = 0; i < times; i += 1) queue.push(failure);
      queues.set(method, queue);
    },
    take(method) {
      return queues.get(method)?.shift();
    },
    reset() {
      queues.clear();
    },
  };
}
