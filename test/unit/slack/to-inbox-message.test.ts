import { describe, expect, it } from 'vitest';
import { inboxMessageOfBody, toInboxMessage } from '../../../src/slack/to-inbox-message.js';
import { dedupeIds, isSlackInboxMessage } from '../../../src/slack/slack-inbox-message.js';
import { bindingRecordKey } from '../../../src/slack/thread-bindings.js';

describe('toInboxMessage', () => {
  const base = {
    type: 'message',
    channel: 'C1',
    user: 'U1',
    text: 'hi',
    ts: '2.0',
    thread_ts: '1.0',
  };
  it.each([
    ['a thread reply', base, true],
    ['an app mention in a thread', { ...base, type: 'app_mention' }, true],
    ['a broadcast thread reply', { ...base, subtype: 'thread_broadcast' }, true],
    ['a top-level message', { ...base, thread_ts: undefined }, false],
    ['a thread parent', { ...base, thread_ts: '2.0' }, false],
    ['a bot message', { ...base, bot_id: 'B1' }, false],
    ['an edit', { ...base, subtype: 'message_changed' }, false],
    ['a deletion', { ...base, subtype: 'message_deleted' }, false],
    ['no user', { ...base, user: undefined }, false],
    ['a reaction event', { ...base, type: 'reaction_added' }, false],
  ])('%s → %s', (_label, event, accepted) => {
    const message = toInboxMessage(event as Record<string, unknown>, 'Ev1', 5);
    expect(message !== undefined).toBe(accepted);
    if (message) expect(isSlackInboxMessage(message)).toBe(true);
  });

  it.each([
    ['an event callback', { type: 'event_callback', event_id: 'Ev1', event: base }, true],
    ['no event id', { type: 'event_callback', event: base }, false],
    ['another envelope type', { type: 'url_verification', event_id: 'Ev1', event: base }, false],
    [
      'an event that is not an object',
      { type: 'event_callback', event_id: 'Ev1', event: [] },
      false,
    ],
  ])('an Events API body: %s → %s', (_label, body, accepted) => {
    const message = inboxMessageOfBody(body as Record<string, unknown>, 5);
    expect(message !== undefined).toBe(accepted);
    if (message) expect(message).toMatchObject({ eventId: 'Ev1', ts: '2.0', threadTs: '1.0' });
  });

  it('a message and its app_mention twin share a dedupe id; a retry shares the event id', () => {
    const message = { eventId: 'Ev1', channel: 'C1', ts: '2.0' };
    const twin = { eventId: 'Ev2', channel: 'C1', ts: '2.0' };
    expect(dedupeIds(message)[1]).toBe(dedupeIds(twin)[1]);
    expect(dedupeIds(message)[0]).not.toBe(dedupeIds(twin)[0]);
  });

  it('binding keys are safe file names that keep channel and ts apart', () => {
    expect(bindingRecordKey('C0123ABC', '1700000000.000100')).toBe('c0123abc-1700000000.000100');
    expect(bindingRecordKey('C1', '../../x')).toBe('c1-....');
  });
});
