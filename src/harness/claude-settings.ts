import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * One hook the-loop installs in Claude Code (docs/design.md §8). Adding a hook is adding a row: the
 * settings, the hooks version and the shim's invocation all follow from this table.
 */
export interface ClaudeHookSpec {
  readonly event: string;
  /**
   * How long the hook waits for serve's answer, in seconds. Every hook but PermissionRequest
   * answers at once (§17); Claude Code's own timeout for the command is set a little above this.
   */
  readonly waitSeconds: number;
  /** Claude Code's matcher for the events that have one (tool names); '' matches everything. */
  readonly matcher?: string;
}

/** A hook that answers at once: at most this long on the hot path, even when serve hangs. */
export const quickHookWaitSeconds = 0.7;

/** permissions.timeoutSeconds when the config names none (docs/design.md §14). */
export const defaultPermissionTimeoutSeconds = 600;
/** serve answers "no decision" at its timeout; the margin lets that answer reach Claude Code. */
export const permissionTimeoutMarginSeconds = 15;

/**
 * The hooks for a session. PermissionRequest is the one that blocks (docs/design.md §14, §17): serve holds
 * it until a decision or `permissions.timeoutSeconds`, so the shim waits a margin longer than that.
 */
export function claudeHookTable(
  permissionTimeoutSeconds: number = defaultPermissionTimeoutSeconds,
): readonly ClaudeHookSpec[] {
  return [
    { event: 'SessionStart', waitSeconds: quickHookWaitSeconds },
    { event: 'UserPromptSubmit', waitSeconds: quickHookWaitSeconds },
    { event: 'Stop', waitSeconds: quickHookWaitSeconds },
    { event: 'Notification', waitSeconds: quickHookWaitSeconds },
    // Progress in the session's Slack thread (docs/design.md §15).
    { event: 'PreToolUse', waitSeconds: quickHookWaitSeconds },
    { event: 'PostToolUse', waitSeconds: quickHookWaitSeconds },
    {
      event: 'PermissionRequest',
      waitSeconds: permissionTimeoutSeconds + permissionTimeoutMarginSeconds,
    },
  ];
}

export const claudeHooks: readonly ClaudeHookSpec[] = claudeHookTable();

export const claudeHookEvents: readonly string[] = claudeHooks.map((hook) => hook.event);

/** The shim every hook command runs (bin/the-loop-hook), beside bin/the-loop. */
export const hookShimName = 'the-loop-hook';

/**
 * The rule that lets the agent run `the-loop post` without asking a person first: the boot
 * directive tells it to answer that way. `:*` is Claude Code's prefix form (`the-loop post`
 * followed by anything, on a word boundary), so `the-loop post "hi"` and `the-loop post -` match
 * and `the-loop posting` or `the-loop standing stop` do not.
 */
export const postAllowRule = 'Bash(the-loop post:*)';

/**
 * How hooks are invoked. Bump it when the command line changes shape; together with the hook
 * table it makes the hooks version a running session is compared against.
 */
const hookMechanism = 'shim-1';

/**
 * Names the hooks a session was started with. A session whose record carries another version
 * (or none: an older the-loop) runs commands this the-loop no longer installs, and needs a restart.
 */
export function claudeHooksVersion(hooks: readonly ClaudeHookSpec[] = claudeHooks): string {
  // Waits are left out: a session started with another permissions.timeoutSeconds still runs
  // every hook this the-loop installs, so it needs no restart.
  const shape = hooks.map((hook) => ({ event: hook.event, matcher: hook.matcher ?? '' }));
  return createHash('sha256')
    .update(JSON.stringify({ mechanism: hookMechanism, hooks: shape }))
    .digest('hex')
    .slice(0, 12);
}

/**
 * The `--settings` the claude adapter passes. Each hook runs the shim — a POSIX shell script that
 * posts the payload with `curl --unix-socket`, far cheaper than a node start-up on the hot path —
 * with the event, how long to wait, and the argv of `the-loop` to fall back to where curl is
 * missing. Claude Code runs hook commands through a shell, so each argv element is single-quoted.
 */
export function claudeSettings(
  loopCommand: readonly string[],
  hooks: readonly ClaudeHookSpec[] = claudeHooks,
  /**
   * Folders Claude Code may read besides its cwd: only the-loop's own (the session's files folder).
   * As `permissions.additionalDirectories` they raise no dialog; `--add-dir` makes 2.1.332 ask
   * "Is this a directory you created or one you trust?" before anything else (docs/design.md §23).
   */
  additionalDirectories: readonly string[] = [],
): Record<string, unknown> {
  const loopBin = loopCommand.at(-1) ?? 'the-loop';
  const shim = path.join(path.dirname(loopBin), hookShimName);
  const fallback = loopCommand.map(shellQuote).join(' ');
  const entries = new Map<string, unknown[]>();
  for (const hook of hooks) {
    // Event names are Claude Code's words and the wait a number: nothing for the shell to read.
    if (!/^[A-Za-z]+$/.test(hook.event) || !(hook.waitSeconds > 0)) {
      throw new Error(`invalid hook spec ${JSON.stringify(hook)}`);
    }
    const command = `${shellQuote(shim)} ${hook.event} ${hook.waitSeconds} ${fallback}`;
    const group = {
      matcher: hook.matcher ?? '',
      hooks: [{ type: 'command', command, timeout: Math.ceil(hook.waitSeconds) + 4 }],
    };
    entries.set(hook.event, [...(entries.get(hook.event) ?? []), group]);
  }
  return {
    permissions: {
      allow: [postAllowRule],
      ...(additionalDirectories.length > 0
        ? { additionalDirectories: [...additionalDirectories] }
        : {}),
    },
    hooks: Object.fromEntries(entries),
  };
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
