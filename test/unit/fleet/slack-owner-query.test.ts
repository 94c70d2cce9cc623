import { describe, expect, it } from 'vitest';
import { slackOwnerQuery } from '../../../src/fleet/slack-owner-query.js';

const reply = (thread?: string) => ({
  type: 'event_callback',
  event_id: 'Ev1',
  event: { type: 'message', channel: 'C1', ts: '2.0', ...(thread ? { thread_ts: thread } : {}) },
});
const slash = (text: string) => ({ command: '/loop', text, trigger_id: 'T.1', user_id: 'U1' });

describe('slackOwnerQuery', () => {
  it.each([
    [
      'thread reply',
      'events_api',
      reply('1.0'),
      { by: 'key', bucket: 'bindings', key: 'slack.C1.1.0' },
    ],
    ['top-level message', 'events_api', reply(), { by: 'receiver' }],
    [
      'delete',
      'slash_commands',
      slash('delete sup'),
      { by: 'key', bucket: 'sessions', key: 'standing.sup' },
    ],
    [
      'restart',
      'slash_commands',
      slash('RESTART sup'),
      { by: 'key', bucket: 'sessions', key: 'standing.sup' },
    ],
    ['create', 'slash_commands', slash('create sup'), { by: 'create' }],
    [
      'create on',
      'slash_commands',
      slash('create sup on laptop-b'),
      { by: 'create', instance: 'laptop-b' },
    ],
    ['list', 'slash_commands', slash('list'), { by: 'receiver' }],
    ['bad name', 'slash_commands', slash('delete ../x'), { by: 'receiver' }],
  ])('%s', (_label, type, body, lookup) => {
    expect(slackOwnerQuery(type, body).lookup).toEqual(lookup);
  });

  it('takes `on INSTANCE` out of the text the owner parses, and keeps the rest', () => {
    const query = slackOwnerQuery('slash_commands', slash('create sup on laptop-b cwd=/srv hi'));
    expect(query.body['text']).toBe('create sup cwd=/srv hi');
    expect(query.id).toBe('T.1');
  });

  it('finds a click by its request id, with its thread as the fallback', () => {
    const body = {
      trigger_id: 'T.2',
      actions: [{ action_id: 'permission_allow', value: 'p-abcdefghij' }],
      channel: { id: 'C1' },
      message: { thread_ts: '1.0' },
    };
    expect(slackOwnerQuery('interactive', body)).toMatchObject({
      kind: 'action',
      id: 'T.2',
      lookup: { by: 'permission', key: 'p-abcdefghij', thread: 'slack.C1.1.0' },
    });
  });

  it('uses the event id as the message id', () => {
    expect(slackOwnerQuery('events_api', reply('1.0'))).toMatchObject({
      kind: 'message',
      id: 'Ev1',
    });
  });
});
