/**
 * The sliding window behind `agents.maxMessagesPerMinute` (docs/design.md §20): a sending session
 * may have at most `limit` messages in any `windowMs`. Pure, so a table test covers it; the
 * limiter below keeps one window per sender.
 */
export interface WindowDecision {
  readonly allowed: boolean;
  /** The sends still inside the window, with this one added when it was allowed. */
  readonly sent: readonly number[];
  /** When refused: how long until the oldest send in the window leaves it. */
  readonly retryAfterMs: number;
}

export const messageWindowMs = 60_000;

export function admitMessage(
  sent: readonly number[],
  now: number,
  limit: number,
  windowMs: number = messageWindowMs,
): WindowDecision {
  const inside = sent.filter((at) => at > now - windowMs);
  if (inside.length < limit) return { allowed: true, sent: [...inside, now], retryAfterMs: 0 };
  const oldest = inside[inside.length - limit] ?? now;
  return { allowed: false, sent: inside, retryAfterMs: Math.max(1, oldest + windowMs - now) };
}

export type Reservation =
  | { readonly allowed: true; release(): void }
  | { readonly allowed: false; readonly retryAfterMs: number };

export interface MessageLimiter {
  /**
   * Takes a place in `sender`'s window; a message that is then refused gives it back with
   * `release()`, so refused says do not count.
   */
  reserve(sender: string): Reservation;
}

export function createMessageLimiter(options: {
  readonly limit: () => number;
  readonly now?: () => number;
}): MessageLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, readonly number[]>();
  return {
    reserve(sender) {
      const at = now();
      const decision = admitMessage(windows.get(sender) ?? [], at, options.limit());
      if (decision.sent.length === 0) windows.delete(sender);
      else windows.set(sender, decision.sent);
      if (!decision.allowed) return { allowed: false, retryAfterMs: decision.retryAfterMs };
      let released = false;
      return {
        allowed: true,
        release() {
          if (released) return;
          released = true;
          const left = [...(windows.get(sender) ?? [])];
          const index = left.lastIndexOf(at);
          if (index !== -1) left.splice(index, 1);
          if (left.length === 0) windows.delete(sender);
          else windows.set(sender, left);
        },
      };
    },
  };
}
