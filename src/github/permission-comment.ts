import { describeOutcome } from '../permissions/decisions.js';
import type { PermissionOutcome, PermissionRequest } from '../permissions/permission-types.js';

export type GithubPermissionMode = 'brief' | 'full' | 'off';

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/**
 * A permission request on its work item (docs/design.md §14): the id, the tool, how to answer — and, with
 * `github.permissions: full`, the summary of the tool input in a code block (no mention or link in
 * it works there). `brief` leaves the summary out, since issues may be public. Once it ended, the
 * same comment says who decided what and when, or why it expired. A marker names the request.
 */
export function permissionComment(options: {
  readonly request: PermissionRequest;
  readonly mode: Exclude<GithubPermissionMode, 'off'>;
  readonly keyword: string;
  readonly instance: string;
  readonly outcome?: PermissionOutcome;
}): string {
  const { request, keyword, outcome } = options;
  const address = options.instance ? ` instance:${options.instance}` : '';
  const summary = options.mode === 'full' && request.summary ? [fenced(request.summary)] : [];
  const tail = outcome
    ? [`**${describeOutcome(outcome).replace(/^./, (first) => first.toUpperCase())}.**`]
    : [
        `Answer with a comment: \`${keyword} allow ${request.id}${address}\`` +
          (request.canAlways ? `, \`${keyword} allow-always ${request.id}${address}\`` : '') +
          ` or \`${keyword} deny ${request.id}${address} [reason]\`. ` +
          `Unanswered by ${request.expiresAt.slice(11, 16)} UTC, it goes back to the terminal.`,
      ];
  return [
    `🔐 Permission request \`${request.id}\`: the agent wants to use **${request.tool}**.`,
    ...summary,
    ...tail,
    `<!-- the-loop:permission=${request.id} -->`,
  ].join('\n\n');
}
