import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';

let fake: FakeSlack;

beforeEach(async () => {
  fake = await startFakeSlack({ botUserId: 'U0LOOPBOT', teamId: 'T0TEAM' });
});

afterEach(async () => {
  await fake.stop();
});

describe('event builders', () => {
  it('builds a user message in a thread', () => {
    const event = fake.messageEvent({
      channel: 'C0ONE',
      user: 'U0ALICE',
      text: 'hi',
      threadTs: '1700000000.000100',
    });
    expect(event).toMatchObject({
      type: 'message',
      channel: 'C0ONE',
      channel_type: 'channel',
      user: 'U0ALICE',
      text: 'hi',
      thread_ts: '1700000000.000100',
      team: 'T0TEAM',
    });
    expect(event.event_ts).toBe(event.ts);
    expect(event.client_msg_id).toEqual(expect.any(String));
    expect(event).not.toHaveProperty('subtype');
  });

  it('builds bot messages with bot_id and the given subtype', () => {
    const event = fake.messageEvent({
      channel: 'C0ONE',
      user: 'U0OTHERBOT',
      text: 'beep',
      botId: 'B0OTHER',
      subtype: 'bot_message',
    });
    expect(event).toMatchObject({ bot_id: 'B0OTHER', subtype: 'bot_message' });
    expect(event).not.toHaveProperty('client_msg_id');
  });

  it('builds an edit that carries the new and the previous message', () => {
    const original = fake.messageEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'teh' });
    const edit = fake.messageEvent({
      channel: 'C0ONE',
      user: 'U0ALICE',
      text: 'the',
      previousText: 'teh',
      ts: original.ts,
      subtype: 'message_changed',
    });
    expect(edit).toMatchObject({
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel: 'C0ONE',
      message: { user: 'U0ALICE', text: 'the', ts: original.ts, edited: { user: 'U0ALICE' } },
      previous_message: { user: 'U0ALICE', text: 'teh', ts: original.ts },
    });
    expect(edit.ts > original.ts).toBe(true);
    expect(edit).not.toHaveProperty('user');
  });

  it('builds a deletion naming the deleted ts', () => {
    const deletion = fake.messageEvent({
      channel: 'C0ONE',
      user: 'U0ALICE',
      text: 'oops',
      ts: '1700000000.000500',
      subtype: 'message_deleted',
    });
    expect(deletion).toMatchObject({
      subtype: 'message_deleted',
      hidden: true,
      deleted_ts: '1700000000.000500',
      previous_message: { text: 'oops', ts: '1700000000.000500' },
    });
  });

  it('builds an app_mention and its message twin on the same channel and ts', () => {
    const mention = fake.appMentionEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'status' });
    const twin = fake.messageEvent({
      channel: 'C0ONE',
      user: 'U0ALICE',
      text: mention.text as string,
      ts: mention.ts,
    });
    expect(mention).toMatchObject({ type: 'app_mention', text: '<@U0LOOPBOT> status' });
    expect([twin.channel, twin.ts, twin.text]).toEqual([mention.channel, mention.ts, mention.text]);
    const again = fake.appMentionEvent({
      channel: 'C0ONE',
      user: 'U0ALICE',
      text: '<@U0LOOPBOT> x',
    });
    expect(again.text).toBe('<@U0LOOPBOT> x');
  });
});

describe('envelope builders', () => {
  it("wraps an event in Slack's events_api envelope, keeping a given event id for retries", () => {
    const event = fake.messageEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'hi' });
    const first = fake.eventsApiEnvelope(event);
    const retry = fake.eventsApiEnvelope(event, {
      eventId: (first.payload as { event_id: string }).event_id,
      retryAttempt: 1,
      retryReason: 'timeout',
    });
    expect(first).toMatchObject({
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
      payload: {
        team_id: 'T0TEAM',
        api_app_id: 'A0FAKE',
        type: 'event_callback',
        event,
        authorizations: [{ team_id: 'T0TEAM', user_id: 'U0LOOPBOT', is_bot: true }],
      },
    });
    expect(retry.envelope_id).not.toBe(first.envelope_id);
    expect(retry.payload).toMatchObject({
      event_id: (first.payload as { event_id: string }).event_id,
    });
    expect(retry).toMatchObject({ retry_attempt: 1, retry_reason: 'timeout' });
  });

  it('builds a slash command with a response_url on the fake, over Socket Mode and HTTP', () => {
    const args = { command: '/loop', text: 'list', user_id: 'U0ALICE', channel_id: 'C0ONE' };
    const envelope = fake.slashCommandEnvelope(args);
    expect(envelope).toMatchObject({
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: { ...args, team_id: 'T0TEAM', api_app_id: 'A0FAKE' },
    });
    const payload = envelope.payload as Record<string, string>;
    expect(payload.response_url?.startsWith(`${fake.baseUrl}/response/`)).toBe(true);
    expect(payload.trigger_id).toEqual(expect.any(String));

    const form = new URLSearchParams(fake.slashCommandHttpBody(args));
    expect(Object.fromEntries(form)).toMatchObject(args);
    expect(form.get('response_url')).not.toBe(payload.response_url);
  });
});
