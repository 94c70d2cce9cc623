/**
 * The shell shim's twin: `the-loop hook EVENT` (src/cli/commands/run-hook.ts) does what
 * bin/the-loop-hook does, and these are the parts of it that decide (docs/design.md §8).
 */
import { isRecord } from '../guards.js';

/** stdin as the hook read it: `end` when the whole stream arrived (cli/read-stream-text.ts). */
export interface HookStdin {
  readonly text: string;
  readonly ending: 'end' | 'too-large' | 'timeout' | 'error';
}

/** How long a hook waits for serve when the settings name no wait: a quick hook's budget. */
export const defaultHookWaitMs = 700;

/**
 * What `the-loop hook` forwards: the JSON object Claude Code wrote on stdin, or `{}` when that was
 * cut short, too large, not JSON or not an object. The event alone still means something to
 * serve (SessionStart: the session is ready), so a bad payload is never a reason to stay silent.
 */
export function hookPayload(read: HookStdin): Record<string, unknown> {
  if (read.ending !== 'end') return {};
  try {
    const value: unknown = JSON.parse(read.text);
    return isRecord(value) ? value : {};
  } catch (error) {
    if (error instanceof SyntaxError) return {};
    throw error;
  }
}

/**
 * `--wait SECONDS` (the settings pass each hook's wait, as they pass it to the shim's curl
 * `--max-time`) in milliseconds; a missing or unreadable value means the quick default.
 */
export function hookWaitMs(flag: string | undefined): number {
  const seconds = flag === undefined ? Number.NaN : Number(flag);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : defaultHookWaitMs;
}

/** serve's answer as the hook prints it: its JSON on one line, or nothing for an empty answer. */
export function hookAnswerText(body: unknown): string {
  return body === undefined ? '' : `${JSON.stringify(body)}\n`;
}
