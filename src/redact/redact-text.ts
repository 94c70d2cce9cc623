import { isSecretVariable } from '../tmux/tmux-environment.js';

/** What every redaction leaves in place of the secret. */
export const redactedMark = '[redacted]';

/** A secret value shorter than this is no secret worth the name, and would redact common words. */
const minSecretLength = 8;
/** How much of a secret's start, cut short by an ellipsis, still counts as the secret. */
const minPrefixLength = 6;

export interface OwnSecret {
  /** The variable it came from, to name in a refusal (never the value). */
  readonly name: string;
  readonly value: string;
}

export interface Redactor {
  /** The text with every secret it can recognise replaced (docs/security.md lists the rules). */
  text(text: string): string;
  /** The name of the first of the-loop's own secrets whose value `bytes` hold, if any. */
  secretIn(bytes: Buffer): string | undefined;
}

/**
 * The-loop's own secrets in serve's environment: `SLACK_*` and `GITHUB_*` tokens and secrets (the
 * bot and app tokens, the signing secret, the GitHub token, the webhook secret) and
 * `THE_LOOP_API_TOKEN` — the same list sessions are started without.
 */
export function ownSecrets(env: NodeJS.ProcessEnv): OwnSecret[] {
  return Object.entries(env)
    .filter(([name, value]) => isSecretVariable(name) && (value ?? '').length >= minSecretLength)
    .map(([name, value]) => ({ name, value: value ?? '' }));
}

const secretWords = 'KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL';

/** Token shapes, redacted wherever they appear (docs/design.md §18). */
const tokenShapes: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\bxox[abprs]-[A-Za-z0-9-]+/g,
  /\bxapp-[A-Za-z0-9-]+/g,
  /\bgh[pousr]_[A-Za-z0-9_]{6,}/g,
  /\bgithub_pat_[A-Za-z0-9_]+/g,
  /\bsk-ant-[A-Za-z0-9_-]+/g,
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bAKIA[0-9A-Z]{12,}/g,
];

/** `Bearer <x>`, in a header or anywhere else. */
const bearer = /\b(Bearer)(\s+)(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi;
/** `NAME=value` where the name says it holds a secret; the value may be quoted. */
const assignment = new RegExp(
  `\\b([A-Za-z0-9_.-]*(?:${secretWords})[A-Za-z0-9_.-]*)=(?!\\[redacted\\])("[^"\\n]*"?|'[^'\\n]*'?|[^\\s&;,'"\`]+)`,
  'gi',
);
/** `"name": "value"` (JSON, and JSON-like text) where the name says it holds a secret. */
const jsonField = new RegExp(
  `("[^"\\n]*(?:${secretWords})[^"\\n]*"\\s*:\\s*)"(?!\\[redacted\\]")(?:[^"\\\\\\n]|\\\\.)*"?`,
  'gi',
);

/**
 * The one redactor every outbound text passes (docs/design.md §18): Slack messages, updates and
 * file names, and GitHub comments — agent replies, progress lines, permission summaries and
 * suggestion texts all go out that way. Pure: the secrets are given, nothing is read.
 */
export function createRedactor(secrets: readonly OwnSecret[]): Redactor {
  // Longest first, so a secret that contains another is redacted whole.
  const values = [...new Set(secrets.map((secret) => secret.value))]
    .filter((value) => value.length >= minSecretLength)
    .sort((a, b) => b.length - a.length);
  return {
    text(text) {
      let out = text;
      for (const value of values) out = out.split(value).join(redactedMark);
      out = redactCutSecrets(out, values);
      for (const shape of tokenShapes) out = out.replace(shape, redactedMark);
      out = out.replace(bearer, `$1$2${redactedMark}`);
      out = out.replace(assignment, `$1=${redactedMark}`);
      out = out.replace(jsonField, `$1"${redactedMark}"`);
      return out;
    },
    secretIn(bytes) {
      return secrets.find(
        (secret) => secret.value.length >= minSecretLength && bytes.includes(secret.value),
      )?.name;
    },
  };
}

/**
 * A secret cut short for display (a progress line's first 60 characters, `…` after them, or the
 * end of the text) still gives its start away: such a start is redacted too.
 */
function redactCutSecrets(text: string, values: readonly string[]): string {
  const cuts = [...text.matchAll(/…|\.\.\.|$/g)].map((match) => match.index);
  let out = text;
  // From the last cut back, so earlier indices stay right.
  for (const cut of cuts.reverse()) {
    for (const value of values) {
      const length = longestPrefixBefore(out, cut, value);
      if (length >= minPrefixLength) {
        out = out.slice(0, cut - length) + redactedMark + out.slice(cut);
        break;
      }
    }
  }
  return out;
}

function longestPrefixBefore(text: string, end: number, value: string): number {
  for (let length = Math.min(value.length - 1, end); length >= minPrefixLength; length -= 1) {
    if (text.slice(end - length, end) === value.slice(0, length)) return length;
  }
  return 0;
}
