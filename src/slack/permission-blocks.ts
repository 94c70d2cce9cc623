import { describeOutcome } from '../permissions/decisions.js';
import type { PermissionOutcome, PermissionRequest } from '../permissions/permission-types.js';
import { escapeMrkdwn } from './text/escape-mrkdwn.js';

export const permissionActions = {
  allow: 'permission_allow',
  'allow-always': 'permission_allow_always',
  deny: 'permission_deny',
} as const;

type Block = Record<string, unknown>;

/** Slack refuses a section text over 3,000 characters; escaping can make 1,500 into more. */
const maxSectionChars = 2_900;

/**
 * Text from the agent made inert for Slack (docs/design.md §14): `&<>` become entities, so `<!channel>`,
 * `<@U…>` and `<http://…|x>` show as typed; a fence inside cannot close the code block; the result
 * is cut between characters, never inside an entity.
 */
export function inertCode(text: string): string {
  const unfenced = text.replace(/`{3,}/g, (run) => run.split('').join('\u200b'));
  let body = '';
  for (const char of unfenced) {
    const escaped = escapeMrkdwn(char);
    if (body.length + escaped.length > maxSectionChars - 7) {
      body += '…';
      break;
    }
    body += escaped;
  }
  return `\`\`\`${body}\`\`\``;
}

const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text } });
const context = (text: string): Block => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text }],
});
const button = (
  text: string,
  actionId: string,
  value: string,
  style?: 'primary' | 'danger',
): Block => ({
  type: 'button',
  text: { type: 'plain_text', text, emoji: true },
  action_id: actionId,
  value,
  ...(style ? { style } : {}),
});

const heading = (request: PermissionRequest): string =>
  `🔐 *Permission request* \`${request.id}\`: the agent wants to use *${escapeMrkdwn(request.tool)}*`;

/** The question in the session's thread: the tool, what it would do, and the buttons. */
export function permissionRequestMessage(request: PermissionRequest): {
  text: string;
  blocks: Block[];
} {
  const expires = `${request.expiresAt.slice(11, 16)} UTC`;
  const always = alwaysBlocks(request);
  return {
    text: `🔐 Permission request ${request.id}: the agent wants to use ${escapeMrkdwn(request.tool)}`,
    blocks: [
      section(heading(request)),
      section(inertCode(request.summary || '(no input)')),
      ...always,
      context(
        `Only approvers can answer; or reply \`!allow\` / \`!deny &lt;reason&gt;\` in this thread. ` +
          `Unanswered by ${expires}, it goes back to the terminal.`,
      ),
      {
        type: 'actions',
        block_id: `permission:${request.id}`,
        elements: [
          button('Allow', permissionActions.allow, request.id, 'primary'),
          ...(request.canAlways
            ? [button('Allow always', permissionActions['allow-always'], request.id)]
            : []),
          button('Deny', permissionActions.deny, request.id, 'danger'),
        ],
      },
    ],
  };
}

/**
 * Every change "Allow always" makes, one line each (docs/design.md §18: it applies only what the
 * approver saw), those it does not apply marked so; across as many sections as they need.
 */
function alwaysBlocks(request: PermissionRequest): Block[] {
  if (request.alwaysChanges.length === 0) return [];
  const title = request.canAlways
    ? '*Allow always* also makes these changes:'
    : 'Claude Code suggested these changes; no button applies them:';
  const lines = [title, ...request.alwaysChanges.map((change) => `• ${escapeMrkdwn(change)}`)];
  const chunks: string[] = [];
  for (const line of lines) {
    const last = chunks.at(-1);
    if (last !== undefined && last.length + line.length + 1 <= maxSectionChars) {
      chunks[chunks.length - 1] = `${last}\n${line}`;
    } else chunks.push(line);
  }
  return chunks.map(section);
}

const marks = { allow: '✅', 'allow-always': '✅', deny: '⛔' } as const;

/** The same message once it ended: new blocks without buttons, and who decided what and when. */
export function permissionSettledMessage(
  request: PermissionRequest,
  outcome: PermissionOutcome,
): { text: string; blocks: Block[] } {
  const mark = outcome.kind === 'decided' ? marks[outcome.verdict] : '⌛';
  const words = `${mark} ${escapeMrkdwn(describeOutcome(outcome))}`;
  return {
    text: `🔐 Permission request ${request.id} (${escapeMrkdwn(request.tool)}): ${words}`,
    blocks: [
      section(heading(request)),
      section(inertCode(request.summary || '(no input)')),
      context(words),
    ],
  };
}
