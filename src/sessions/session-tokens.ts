/** The session a `THE_LOOP_SESSION_TOKEN` speaks for. */
export interface TokenOwner {
  readonly ref: string;
  readonly tmuxName: string;
}

/**
 * Tokens of sessions this process started, known from the moment before the harness launches:
 * its first hook (SessionStart) can arrive before the session's record is written. Sessions that
 * were already running when `serve` started are found through their records instead.
 */
export interface SessionTokens {
  register(token: string, owner: TokenOwner): void;
  revoke(ref: string): void;
  find(token: string): TokenOwner | undefined;
}

export function createSessionTokens(): SessionTokens {
  const byToken = new Map<string, TokenOwner>();
  return {
    register(token, owner) {
      for (const [known, entry] of byToken) if (entry.ref === owner.ref) byToken.delete(known);
      byToken.set(token, owner);
    },
    revoke(ref) {
      for (const [known, entry] of byToken) if (entry.ref === ref) byToken.delete(known);
    },
    find(token) {
      return token ? byToken.get(token) : undefined;
    },
  };
}
