import type { PermissionVerdict } from '../../permissions/permission-types.js';
import { codePointBefore } from '../../text/code-point-before.js';
import { stripNonProse } from '../../text/strip-non-prose.js';

export interface PermissionKeyword {
  readonly verdict: PermissionVerdict;
  readonly id: string;
  /** Deny only: the rest of the comment after the id (docs/design.md §17), which Claude reads. */
  readonly reason?: string;
}

const joinsPrevious = /^[\p{L}\p{N}\p{M}_/.-]$/u;
/** The address token is for the-loop, not for Claude: it is left out of a reason. */
const addressToken = /(?<![A-Za-z0-9_:/.-])instance:[a-z0-9-]*/gi;

/**
 * Reads `<keyword> allow <id>`, `<keyword> allow-always <id>` or `<keyword> deny <id> [reason]`
 * from a comment (docs/design.md §14), ignoring code, quotes and HTML comments as the other keywords do.
 * The keyword has already passed parseKeywordCommand's grammar check. The first such command in
 * the comment counts.
 */
export function parsePermissionKeyword(
  body: string,
  keyword: string,
): PermissionKeyword | undefined {
  const text = stripNonProse(body);
  const pattern = new RegExp(
    `${escapeRegExp(keyword)}[ \\t]+(allow-always|allow|deny)[ \\t]+(p-[a-z2-7]{10})(?![A-Za-z0-9_-])`,
    'gi',
  );
  for (const match of text.matchAll(pattern)) {
    if (joinsPrevious.test(codePointBefore(text, match.index))) continue;
    const verdict = (match[1] ?? '').toLowerCase() as PermissionVerdict;
    const id = (match[2] ?? '').toLowerCase();
    const reason =
      verdict === 'deny'
        ? body
            .slice(match.index + match[0].length)
            .replace(addressToken, '')
            .trim()
            .slice(0, 2_000)
        : '';
    return { verdict, id, ...(reason ? { reason } : {}) };
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
