import { isSlackFile, type SlackFile } from './files/slack-file.js';

/** A thread reply as recorded in the inbox: only what handling it needs, from the event. */
export interface SlackInboxMessage {
  readonly source: 'slack';
  readonly eventId: string;
  readonly channel: string;
  readonly user: string;
  readonly text: string;
  readonly ts: string;
  readonly threadTs: string;
  readonly receivedAt: number;
  /** Files attached to the reply (a `file_share`); absent when there are none. */
  readonly files?: readonly SlackFile[];
}

export function isSlackInboxMessage(value: unknown): value is SlackInboxMessage {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    entry['source'] === 'slack' &&
    ['eventId', 'channel', 'user', 'text', 'ts', 'threadTs'].every(
      (key) => typeof entry[key] === 'string',
    ) &&
    typeof entry['receivedAt'] === 'number' &&
    (entry['files'] === undefined ||
      (Array.isArray(entry['files']) && entry['files'].every(isSlackFile)))
  );
}

/** The ids a message is known by; a retry or the app_mention twin of a message matches one. */
export function dedupeIds(message: { eventId: string; channel: string; ts: string }): string[] {
  return [`slack:event:${message.eventId}`, `slack:message:${message.channel}:${message.ts}`];
}
