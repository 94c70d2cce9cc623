import { parsePermissionId } from '../permissions/permission-types.js';
import { isRecord } from '../guards.js';
import { bindingKey, sessionKey } from './fleet-names.js';

export type RoutedKind = 'message' | 'slash' | 'action' | 'github';

/** What the receiving instance must look up to find an envelope's owner (docs/design.md §21). */
export type OwnerLookup =
  | { readonly by: 'key'; readonly bucket: 'bindings' | 'sessions'; readonly key: string }
  | {
      readonly by: 'permission';
      readonly key: string;
      /** The thread the click happened in, when the request id is not known. */
      readonly thread?: string;
    }
  /** `/loop create NAME on INSTANCE`: `instance` unset means the default, else the receiver. */
  | { readonly by: 'create'; readonly instance?: string }
  | { readonly by: 'receiver' };

export interface SlackOwnerQuery {
  readonly kind: Exclude<RoutedKind, 'github'>;
  /** `Nats-Msg-Id`: the event id, or the trigger id of commands and clicks. */
  readonly id: string | undefined;
  readonly lookup: OwnerLookup;
  /** The body to forward, when it differs from the one received (`on INSTANCE` taken out). */
  readonly body: Record<string, unknown>;
}

const byName = new Set(['delete', 'start', 'stop', 'restart']);
const namePattern = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A Socket Mode envelope's type (or the HTTP body's shape) and body → where its owner is found. */
export function slackOwnerQuery(type: string, body: Record<string, unknown>): SlackOwnerQuery {
  if (type === 'slash_commands') return slashQuery(body);
  if (type === 'interactive') return actionQuery(body);
  const event = record(body['event']);
  const id = text(body['event_id']);
  const channel = text(event['channel']);
  const threadTs = text(event['thread_ts']);
  const lookup: OwnerLookup =
    channel && threadTs
      ? { by: 'key', bucket: 'bindings', key: bindingKey(channel, threadTs) }
      : { by: 'receiver' };
  return { kind: 'message', id, lookup, body };
}

function slashQuery(body: Record<string, unknown>): SlackOwnerQuery {
  const id = text(body['trigger_id']);
  const words = (text(body['text']) ?? '').trim().split(/\s+/);
  const verb = (words[0] ?? '').toLowerCase();
  const name = words[1] ?? '';
  if (byName.has(verb) && namePattern.test(name)) {
    const lookup = { by: 'key', bucket: 'sessions', key: sessionKey(name) } as const;
    return { kind: 'slash', id, lookup, body };
  }
  if (verb === 'create' && words[2]?.toLowerCase() === 'on' && namePattern.test(words[3] ?? '')) {
    const rest = [words[0], words[1], ...words.slice(4)].join(' ');
    const lookup = { by: 'create', instance: words[3] } as const;
    return { kind: 'slash', id, lookup, body: { ...body, text: rest } };
  }
  if (verb === 'create') return { kind: 'slash', id, lookup: { by: 'create' }, body };
  return { kind: 'slash', id, lookup: { by: 'receiver' }, body };
}

function actionQuery(body: Record<string, unknown>): SlackOwnerQuery {
  const id = text(body['trigger_id']);
  const actions = Array.isArray(body['actions']) ? body['actions'] : [];
  const requestId = parsePermissionId(text(record(actions[0])['value']) ?? '');
  const channel = text(record(body['channel'])['id']);
  const threadTs = text(record(body['message'])['thread_ts']);
  const thread = channel && threadTs ? bindingKey(channel, threadTs) : undefined;
  if (requestId) {
    const lookup = { by: 'permission', key: requestId, ...(thread ? { thread } : {}) } as const;
    return { kind: 'action', id, lookup, body };
  }
  const lookup: OwnerLookup = thread
    ? { by: 'key', bucket: 'bindings', key: thread }
    : { by: 'receiver' };
  return { kind: 'action', id, lookup, body };
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
