import { randomBytes } from 'node:crypto';

/** The shapes of docs/design.md §14: one open question an agent asked, and how it ended. */

export type PermissionSurface = 'slack' | 'github' | 'cli' | 'dashboard';

export type PermissionVerdict = 'allow' | 'allow-always' | 'deny';

/** docs/design.md §17: why a request ended without anyone here deciding it. */
export type ExpiryReason = 'timeout' | 'restart' | 'terminal' | 'stopped';

export interface PermissionDecider {
  readonly surface: PermissionSurface;
  /** How people know the decider: `@dana`, a GitHub login, the CLI's user. */
  readonly name: string;
}

/** What `GET /api/v1/permissions` lists (docs/design.md §17). Never the raw tool input. */
export interface PermissionView {
  readonly id: string;
  readonly ref: string;
  readonly tool: string;
  /** Sanitised, at most 1,500 characters. */
  readonly summary: string;
  readonly requestedAt: string;
  readonly expiresAt: string;
  /** Whether "allow always" can be offered: Claude Code sent permission suggestions. */
  readonly canAlways: boolean;
}

export interface PermissionRequest extends PermissionView {
  /** Claude Code's `permission_suggestions`, kept as sent: "allow always" hands them back. */
  readonly suggestions: readonly unknown[];
  /** What "allow always" changes, in words, one line per suggestion, those not applied marked. */
  readonly alwaysChanges: readonly string[];
  /** The suggestions "allow always" hands back: only what the approver is shown as applied. */
  readonly alwaysApply: readonly unknown[];
}

export type PermissionOutcome =
  | {
      readonly kind: 'decided';
      readonly verdict: PermissionVerdict;
      readonly decider: PermissionDecider;
      /** A deny's reason, as the decider wrote it; Claude reads it. */
      readonly reason?: string;
      readonly at: string;
    }
  | { readonly kind: 'expired'; readonly reason: ExpiryReason; readonly at: string };

export type PermissionChange =
  | { readonly kind: 'requested'; readonly request: PermissionRequest }
  | {
      readonly kind: 'settled';
      readonly request: PermissionRequest;
      readonly outcome: PermissionOutcome;
    };

/** What serve takes from a PermissionRequest hook payload; everything else in it is ignored. */
export interface PermissionAsk {
  readonly tool: string;
  readonly toolInput: unknown;
  readonly suggestions: readonly unknown[];
}

/** RFC 4648 base32, lower case: no 0/1/8/9, so ids read aloud and typed into a comment survive. */
const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
const idPattern = /^p-[a-z2-7]{10}$/;

/**
 * A permission request's id (docs/design.md §17): `p-` and 10 base32 characters, 50 bits from the
 * system's cryptographic randomness. Whoever holds an id may try to decide the request, so it must
 * not be guessable from the ids seen before it; the approver check still applies to every try.
 */
export function newPermissionId(random: (size: number) => Buffer = randomBytes): string {
  const bytes = random(7);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let id = '';
  for (let index = 0; index < 10; index += 1) {
    id += alphabet[Number((bits >> BigInt(5 * index)) & 31n)] ?? '';
  }
  return `p-${id}`;
}

/** Whether a word is shaped like a permission id; case-insensitive, since people retype them. */
export function parsePermissionId(word: string): string | undefined {
  const id = word.toLowerCase();
  return idPattern.test(id) ? id : undefined;
}
