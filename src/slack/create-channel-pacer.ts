import { setTimeout as delay } from 'node:timers/promises';

/**
 * Slack allows about one message per second per channel. Posts to one channel take turns at that
 * pace; other channels are not held up.
 */
export interface ChannelPacer {
  run<T>(channel: string, post: () => Promise<T>): Promise<T>;
}

export function createChannelPacer(options: {
  readonly intervalMs: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<unknown>;
}): ChannelPacer {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const tails = new Map<string, Promise<unknown>>();
  const lastPost = new Map<string, number>();

  return {
    run(channel, post) {
      const previous = tails.get(channel) ?? Promise.resolve();
      const turn = previous.then(async () => {
        const wait = (lastPost.get(channel) ?? -Infinity) + options.intervalMs - now();
        if (wait > 0) await sleep(wait);
        try {
          return await post();
        } finally {
          lastPost.set(channel, now());
        }
      });
      const tail = turn.catch(() => undefined);
      tails.set(channel, tail);
      void tail.then(() => {
        if (tails.get(channel) === tail) tails.delete(channel);
      });
      return turn;
    },
  };
}
