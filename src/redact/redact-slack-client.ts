import type { WebClient } from '@slack/web-api';
import type { Redactor } from './redact-text.js';

/**
 * Fields of a Web API call that are ids, names and keys of the-loop's own making, never text an
 * agent wrote: they are passed as they are (a redacted channel id would send the message nowhere).
 */
const structuralKeys = new Set([
  'token',
  'team_id',
  'channel',
  'channel_id',
  'ts',
  'thread_ts',
  'action_id',
  'block_id',
  'value',
  'user',
  'users',
  'id',
  'file_id',
  'name',
  'type',
  'style',
  'url',
  'length',
]);

type RequestFn = (url: string, body: Record<string, unknown>, headers?: object) => Promise<unknown>;

/**
 * Puts the one redactor (docs/design.md §18) on every Web API call the client makes. Every method
 * (`chat.postMessage`, `chat.update`, `chat.postEphemeral`, `files.getUploadURLExternal`,
 * `files.completeUploadExternal`, …) ends in the client's one `makeRequest`, with its arguments
 * still as an object: each text in them — `text`, block texts, file names and titles — is
 * redacted there, so no caller can forget it. `makeRequest` is the client's own (private in its
 * types); test/security/outbound-redaction.test.ts fails if a version of the SDK stops using it.
 */
export function redactSlackClient(client: WebClient, redactor: Redactor): void {
  const target = client as unknown as { makeRequest: RequestFn };
  const original = target.makeRequest.bind(client);
  target.makeRequest = (url, body, headers) =>
    original(url, redactFields(body, redactor) as Record<string, unknown>, headers);
}

/** Every string in a call's arguments, but for the structural ones, redacted. */
export function redactFields(value: unknown, redactor: Redactor, key?: string): unknown {
  if (typeof value === 'string') {
    return key !== undefined && structuralKeys.has(key) ? value : redactor.text(value);
  }
  if (Array.isArray(value)) return value.map((item) => redactFields(item, redactor));
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, redactFields(field, redactor, name)]),
  );
}
