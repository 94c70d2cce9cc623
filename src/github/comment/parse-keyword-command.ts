import { LoopError } from '../../errors.js';
import { codePointBefore } from '../../text/code-point-before.js';
import { stripNonProse } from '../../text/strip-non-prose.js';

export type KeywordCommand = 'start' | 'stop';

export type KeywordResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'command'; readonly command: KeywordCommand }
  | { readonly kind: 'ambiguous' };

/**
 * The grammar `github.keyword` has in schemas/config.schema.json (a test keeps the two equal), so
 * any keyword the config accepts can be parsed here.
 */
const keywordPattern = /^[A-Za-z0-9@/_.-]{1,40}$/;

/** A keyword glued to a word or path is not a command: `not-the-loop start`, `x/the-loop start`. */
const joinsPrevious = /^[\p{L}\p{N}\p{M}_/.-]$/u;
const joinsNext = /^[\p{L}\p{N}\p{M}_-]$/u;

/**
 * Reads `<keyword> start` or `<keyword> stop` from a comment (docs/design.md §7.2), ignoring code, quotes
 * and HTML comments. Keyword and command are case-insensitive (ASCII only: the `i` flag is used
 * without `u`, so `ſtart` or a Kelvin sign never passes for `start`); the command must be a whole
 * word. The same command twice is that command; start and stop together are ambiguous.
 */
export function parseKeywordCommand(body: string, keyword: string): KeywordResult {
  if (!keywordPattern.test(keyword)) {
    throw new LoopError(
      'config_invalid',
      `the comment keyword ${JSON.stringify(keyword)} is not valid: set github.keyword to 1–40 ` +
        `characters of letters, digits and @ / _ . -`,
    );
  }
  const text = stripNonProse(body);
  // One line break may separate keyword and command: it is still one sentence once rendered.
  const command = new RegExp(
    `${escapeRegExp(keyword)}(?:[ \\t]+|[ \\t]*\\r?\\n[ \\t]*)(start|stop)`,
    'gi',
  );
  const found = new Set<KeywordCommand>();
  for (const match of text.matchAll(command)) {
    const end = match.index + match[0].length;
    if (joinsPrevious.test(codePointBefore(text, match.index))) continue;
    if (joinsNext.test(String.fromCodePoint(text.codePointAt(end) ?? 0x20))) continue;
    found.add(match[1]?.toLowerCase() === 'stop' ? 'stop' : 'start');
  }
  const [only] = found;
  if (only === undefined) return { kind: 'none' };
  return found.size === 1 ? { kind: 'command', command: only } : { kind: 'ambiguous' };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
