import type { StreamText } from './read-stream-text.js';

/**
 * What `the-loop hook` forwards: the JSON object Claude Code wrote on stdin, or `{}` when that was
 * cut short, too large, not JSON or not an object. The event alone still means something to
 * serve (SessionStart: the session is ready), so a bad payload is never a reason to stay silent.
 */
export function hookPayload(read: StreamText): Record<string, unknown> {
  if (read.ending !== 'end') return {};
  try {
    const value: unknown = JSON.parse(read.text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch (error) {
    if (error instanceof SyntaxError) return {};
    throw error;
  }
}
