import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The dashboard's secrets (docs/design.md §19): one-time sign-in codes (single use, 2 minutes)
 * and session cookies (12 hours). Only SHA-256 digests are kept, and a value is found by its
 * digest, so neither a lookup nor a comparison takes a time that depends on how much of a guess
 * was right.
 */
export interface SignInStore {
  /** A new one-time code. */
  issueCode(): { code: string; expiresAt: number };
  /** True once for a code issued less than 2 minutes ago; it is used up either way. */
  redeemCode(code: string): boolean;
  /** A new session; its value goes into the `loop_session` cookie. */
  openSession(): string;
  /** Whether a cookie value is a session this server opened less than 12 hours ago. */
  hasSession(value: string): boolean;
}

export const codeTtlMs = 2 * 60 * 1000;
export const sessionTtlMs = 12 * 60 * 60 * 1000;

export function createSignInStore(
  options: {
    readonly now?: () => number;
    readonly random?: (bytes: number) => string;
    /** Shorter than 2 minutes only (tests of an expired code); never longer. */
    readonly codeTtlMs?: number;
  } = {},
): SignInStore {
  const now = options.now ?? Date.now;
  const ttlMs = Math.min(options.codeTtlMs ?? codeTtlMs, codeTtlMs);
  const random = options.random ?? ((bytes: number) => randomBytes(bytes).toString('base64url'));
  const codes = new Map<string, number>();
  const sessions = new Map<string, number>();

  function prune(table: Map<string, number>): void {
    const at = now();
    for (const [key, expiresAt] of table) if (expiresAt <= at) table.delete(key);
  }

  return {
    issueCode() {
      prune(codes);
      const code = random(24);
      const expiresAt = now() + ttlMs;
      codes.set(digest(code), expiresAt);
      return { code, expiresAt };
    },
    redeemCode(code) {
      const key = digest(code);
      const expiresAt = codes.get(key);
      codes.delete(key);
      prune(codes);
      return expiresAt !== undefined && expiresAt > now();
    },
    openSession() {
      prune(sessions);
      const value = random(32);
      sessions.set(digest(value), now() + sessionTtlMs);
      return value;
    },
    hasSession(value) {
      const expiresAt = sessions.get(digest(value));
      if (expiresAt === undefined) return false;
      if (expiresAt > now()) return true;
      sessions.delete(digest(value));
      return false;
    },
  };
}

/** Compares a presented secret with the one expected in constant time (both hashed first). */
export function sameSecret(presented: string, expected: string): boolean {
  if (expected === '') return false;
  return timingSafeEqual(
    createHash('sha256').update(presented).digest(),
    createHash('sha256').update(expected).digest(),
  );
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
