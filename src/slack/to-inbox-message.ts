import { readSlackFiles } from './files/slack-file.js';
import type { SlackInboxMessage } from './slack-inbox-message.js';

/** Subtypes that are still a person's reply: shown in the channel too, or carrying files. */
const replySubtypes = new Set(['thread_broadcast', 'file_share']);

/**
 * Decides whether a Slack `message` or `app_mention` event is a person's reply in a thread, and
 * keeps what handling it needs. Bot messages, edits, deletions and other subtypes, and top-level
 * messages (no thread, so no binding) are not.
 */
export function toInboxMessage(
  event: Record<string, unknown>,
  eventId: string,
  receivedAt: number,
): SlackInboxMessage | undefined {
  const { channel, user, text, ts } = event;
  const threadTs = event['thread_ts'];
  if (event['type'] !== 'message' && event['type'] !== 'app_mention') return undefined;
  if (event['subtype'] !== undefined && !replySubtypes.has(String(event['subtype'])))
    return undefined;
  if (event['bot_id'] !== undefined || event['bot_profile'] !== undefined) return undefined;
  if (typeof channel !== 'string' || typeof user !== 'string' || typeof ts !== 'string')
    return undefined;
  const files = readSlackFiles(event['files']);
  // A reply that is only files comes with an empty text (or none).
  const body = typeof text === 'string' ? text : files.length > 0 ? '' : undefined;
  if (body === undefined || typeof threadTs !== 'string' || threadTs === ts) return undefined;
  return {
    source: 'slack',
    eventId,
    channel,
    user,
    text: body,
    ts,
    threadTs,
    receivedAt,
    ...(files.length > 0 ? { files } : {}),
  };
}

/**
 * The thread reply an Events API body (a Socket Mode envelope's payload, or the HTTP request's
 * JSON) carries, read straight from the body so it can be recorded before Bolt sees it.
 */
export function inboxMessageOfBody(
  body: Record<string, unknown>,
  receivedAt: number,
): SlackInboxMessage | undefined {
  const event = body['event'];
  const eventId = body['event_id'];
  if (body['type'] !== 'event_callback' || typeof eventId !== 'string') return undefined;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  return toInboxMessage(event as Record<string, unknown>, eventId, receivedAt);
}
