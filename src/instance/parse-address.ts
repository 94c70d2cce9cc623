import { codePointBefore } from '../text/code-point-before.js';
import { stripNonProse } from '../text/strip-non-prose.js';
import { isValidName } from '../refs.js';
import { safeLogToken } from './safe-log-token.js';

export type AddressResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'addressed'; readonly name: string }
  /** `token` is cut to printable ASCII: it may be logged, nothing else of the comment may. */
  | { readonly kind: 'malformed'; readonly token: string }
  | { readonly kind: 'ambiguous'; readonly names: readonly string[] };

const prefix = /instance:/gi;
/** A token must start a word: `myinstance:a`, `http://instance:a`, `x.instance:a` are not tokens. */
const joinsPrevious = /^[\p{L}\p{N}\p{M}_:/.-]$/u;
/**
 * What the name is read from: every letter, digit, `_` and `-` after the colon, not only the name
 * alphabet. `instance:laptopB` or `instance:lap_top` is then malformed instead of quietly
 * addressing `laptop` or `lap`; punctuation and markup (`.`, `,`, `*`, `)`) still end the name.
 */
const nameRun = /[\p{L}\p{N}\p{M}_-]*/uy;

/**
 * Finds the `instance:<name>` address token in a comment (docs/design.md §7.3). Code, quotes and HTML
 * comments do not count (stripNonProse). A malformed token wins over everything else, then two
 * different names are ambiguous; the same name twice is one address. Never throws.
 */
export function parseAddress(body: string): AddressResult {
  const text = stripNonProse(body);
  const names: string[] = [];
  for (const match of text.matchAll(prefix)) {
    const start = match.index;
    if (joinsPrevious.test(codePointBefore(text, start))) continue;
    const after = start + match[0].length;
    nameRun.lastIndex = after;
    const run = nameRun.exec(text)?.[0] ?? '';
    const name = withoutTrailingHyphens(run);
    if (!isValidName(name)) {
      return { kind: 'malformed', token: safeLogToken(`${match[0]}${run}`) };
    }
    if (!names.includes(name)) names.push(name);
  }
  const [first] = names;
  if (first === undefined) return { kind: 'none' };
  return names.length === 1 ? { kind: 'addressed', name: first } : { kind: 'ambiguous', names };
}

// A loop, not /-+$/: that regex is quadratic on a long run of hyphens followed by a letter.
function withoutTrailingHyphens(run: string): string {
  let end = run.length;
  while (end > 0 && run[end - 1] === '-') end -= 1;
  return run.slice(0, end);
}
