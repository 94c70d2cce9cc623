import { createHash } from 'node:crypto';

/**
 * Names, refs and tmux target names (docs/design.md §1, §3.6). These are the only places a ref string is
 * read; everything else passes the parsed values around.
 */

const namePattern = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A standing-session or instance name. The whole string must match: `"abc\n"` is refused. */
export function isValidName(value: unknown): value is string {
  // `$` in a JS regex without the `m` flag does not match before a trailing newline, but we test
  // the length too so that no future flag change can widen the grammar.
  return typeof value === 'string' && value.length <= 40 && namePattern.test(value);
}

export function nameProblem(value: string): string {
  return (
    `\`${printable(value)}\` is not a valid name: use 1–40 characters of a–z, 0–9 and '-', ` +
    `starting and ending with a letter or digit`
  );
}

export interface WorkItemRef {
  /** `github.com` unless a GitHub Enterprise Server host was named. */
  readonly host: string;
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

export const defaultGithubHost = 'github.com';

const standingPrefix = 'standing:';

export function standingRef(name: string): string {
  return `${standingPrefix}${name}`;
}

/** Returns the standing-session name of a ref, or undefined for anything else. */
export function parseStandingRef(ref: string): string | undefined {
  if (!ref.startsWith(standingPrefix)) return undefined;
  const name = ref.slice(standingPrefix.length);
  return isValidName(name) ? name : undefined;
}

const ownerPart = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})';
const repoPart = '[A-Za-z0-9._-]{1,100}';
const hostPart = '[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})(?::[0-9]{1,5})?';
const numberPart = '[1-9][0-9]{0,9}';

const githubRefPattern = new RegExp(
  `^github:(?:(${hostPart})/)?(${ownerPart})/(${repoPart})#(${numberPart})$`,
);
const githubUrlPattern = new RegExp(
  `^https://(${hostPart})/(${ownerPart})/(${repoPart})/(?:issues|pull)/(${numberPart})/?(?:[?#].*)?$`,
);

/**
 * Returns the work item a ref names, or undefined. Accepts `github:owner/repo#n`,
 * `github:host/owner/repo#n` (GHES) and issue or pull-request URLs, which normalise to the same
 * value.
 */
export function parseWorkItemRef(ref: string): WorkItemRef | undefined {
  const match = githubRefPattern.exec(ref) ?? githubUrlPattern.exec(ref);
  if (!match) return undefined;
  const [, host, owner, repo, number] = match;
  if (!owner || !repo || !number) return undefined;
  if (repo === '.' || repo === '..') return undefined;
  return { host: (host ?? defaultGithubHost).toLowerCase(), owner, repo, number: Number(number) };
}

/** The canonical ref string: the host only when it is not github.com. */
export function workItemRef(item: WorkItemRef): string {
  const host = item.host.toLowerCase() === defaultGithubHost ? '' : `${item.host.toLowerCase()}/`;
  return `github:${host}${item.owner}/${item.repo}#${item.number}`;
}

/** Two refs name the same work item when host, owner and repo match ignoring case. */
export function sameWorkItem(a: WorkItemRef, b: WorkItemRef): boolean {
  return (
    a.host.toLowerCase() === b.host.toLowerCase() &&
    a.owner.toLowerCase() === b.owner.toLowerCase() &&
    a.repo.toLowerCase() === b.repo.toLowerCase() &&
    a.number === b.number
  );
}

export function standingTarget(name: string): string {
  return `loop-standing-${name}`;
}

/**
 * `loop-gh-<owner>-<repo>-<n>`, lowercased, other characters mapped to `-`. When the mapping lost
 * information (dots, underscores, a non-default host) or cannot be split back (a hyphen in
 * the owner or repo makes `a-b/c` and `a/b-c` look alike) a short hash of the canonical ref is
 * appended. Plain names then have exactly three parts and hashed ones at least four, so two
 * different work items never share a target.
 */
export function workItemTarget(item: WorkItemRef): string {
  // GitHub names are case-insensitive: `Octo/Repo#1` and `octo/repo#1` are one work item.
  const raw = `${item.owner}-${item.repo}-${item.number}`.toLowerCase();
  const mapped = raw.replace(/[^a-z0-9-]/g, '-');
  const lossless =
    mapped === raw &&
    item.host.toLowerCase() === defaultGithubHost &&
    !item.owner.includes('-') &&
    !item.repo.includes('-');
  if (lossless) return `loop-gh-${mapped}`;
  const canonical = workItemRef({
    ...item,
    owner: item.owner.toLowerCase(),
    repo: item.repo.toLowerCase(),
  });
  const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 8);
  return `loop-gh-${mapped}-${hash}`;
}

/** A file-name slug for a work item record; the same injective mapping as the tmux target. */
export function workItemSlug(item: WorkItemRef): string {
  return workItemTarget(item).slice('loop-gh-'.length);
}

/** Renders control characters visibly so an error message cannot smuggle terminal sequences. */
export function printable(value: string): string {
  // JSON escapes C0 controls but leaves DEL and the C1 range, which some terminals act on.
  return JSON.stringify(value)
    .slice(1, -1)
    .replace(
      /[\u007f-\u009f]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}
