import { parsePermissionId, type PermissionVerdict } from '../../permissions/permission-types.js';

export interface PermissionCommand {
  readonly verdict: PermissionVerdict;
  /** Given when the message names one (needed when more than one request is open). */
  readonly id?: string;
  /** Deny only: the rest of the message, which Claude reads. */
  readonly reason?: string;
}

const verdicts: Readonly<Record<string, PermissionVerdict>> = {
  allow: 'allow',
  'allow-always': 'allow-always',
  deny: 'deny',
};

/**
 * `!allow [id]`, `!allow-always [id]`, `!deny [id] [reason…]` in a session's thread (docs/design.md §6,
 * §14). Slack sends `<`, `>` and `&` as entities; the reason keeps them so, and is decoded once
 * where it goes to Claude. Anything else: undefined, for the other thread commands to judge.
 */
export function parsePermissionCommand(text: string): PermissionCommand | undefined {
  const match = /^\s*!\s*([a-z-]+)(?:\s+([\s\S]*))?$/i.exec(text);
  const verdict = verdicts[(match?.[1] ?? '').toLowerCase()];
  if (!match || !verdict) return undefined;
  const rest = (match[2] ?? '').trim();
  const [first = ''] = rest.split(/\s+/);
  const id = parsePermissionId(first);
  const reason = (id ? rest.slice(first.length) : rest).trim();
  return {
    verdict,
    ...(id ? { id } : {}),
    ...(verdict === 'deny' && reason ? { reason } : {}),
  };
}
