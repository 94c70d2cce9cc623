import type { StreamText } from './read-stream-text.js';
import { isRecord } from '../guards.js';

/** How long a hook waits for serve when the settings name no wait: a quick hook's budget. */
export const defaultHookWaitMs = 700;

/**
 * What `the-loop hook` forwards: the JSON object Claude Code wrote on stdin, or `{}` when that was
 * cut short, too large, not JSON or not an object. The event alone still means something to
 * serve (SessionStart: the session is ready), so a bad payload is never a reason to stay silent.
 */
export function hookPayload(read: StreamText): Record<string, unknown> {
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
