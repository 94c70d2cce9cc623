export interface RateSnapshot {
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
  readonly reset: number;
}

export type RateWindow = ReturnType<typeof createRateWindow>;

const limit = 5_000;
const windowSeconds = 3_600;

/** The primary rate limit of one token: 5,000 requests an hour, counted as GitHub counts them. */
export function createRateWindow(now: () => number) {
  const seconds = () => Math.floor(now() / 1000);
  let used = 0;
  let reset = seconds() + windowSeconds;
  const roll = () => {
    if (seconds() < reset) return;
    used = 0;
    reset = seconds() + windowSeconds;
  };
  return {
    count(): void {
      roll();
      used = Math.min(limit, used + 1);
    },
    snapshot(): RateSnapshot {
      roll();
      return { limit, used, remaining: limit - used, reset };
    },
    headers(rate: RateSnapshot): Record<string, string> {
      return {
        'x-ratelimit-limit': String(rate.limit),
        'x-ratelimit-remaining': String(rate.remaining),
        'x-ratelimit-reset': String(rate.reset),
        'x-ratelimit-used': String(rate.used),
        'x-ratelimit-resource': 'core',
      };
    },
  };
}
