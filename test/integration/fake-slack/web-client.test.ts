import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';

let fake: FakeSlack;
let bot: WebClient;

/** A client that gives up at once, so a failure test sees the first answer. */
const client = (token: string, retries = 0) =>
  new WebClient(token, {
    slackApiUrl: fake.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries, minTimeout: 0, maxTimeout: 0 },
  });

beforeEach(async () => {
  fake = await startFakeSlack({ users: { U0ALICE: { name: 'alice', real_name: 'Alice A' } } });
  bot = client(fake.identity.botToken);
});

afterEach(async () => {
  await fake.stop();
});

describe('the Web API, driven by the real WebClient', () => {
  it('posts a message and reacts to it, recording parsed arguments and the token', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    const posted = await bot.chat.postMessage({
      channel: 'C0ONE',
      text: 'hi',
      blocks,
      thread_ts: '1700000000.000001',
    });
    expect(posted).toMatchObject({ ok: true, channel: 'C0ONE' });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(posted.message).toMatchObject({ text: 'hi', thread_ts: '1700000000.000001' });
    await bot.reactions.add({ channel: 'C0ONE', timestamp: posted.ts ?? '', name: 'eyes' });

    expect(fake.calls.map((call) => call.method)).toEqual(['chat.postMessage', 'reactions.add']);
    const [post, reaction] = fake.calls;
    expect(post?.args).toMatchObject({ channel: 'C0ONE', text: 'hi', blocks });
    expect(post?.token).toBe(fake.identity.botToken);
    expect(post?.response).toMatchObject({ ok: true, ts: posted.ts });
    expect(reaction?.args).toEqual({ channel: 'C0ONE', timestamp: posted.ts, name: 'eyes' });
  });

  it('hands out strictly increasing timestamps', async () => {
    const first = await bot.chat.postMessage({ channel: 'C0ONE', text: 'one' });
    const second = await bot.chat.postMessage({ channel: 'C0ONE', text: 'two' });
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    expect(fake.nextTs() > (second.ts ?? '')).toBe(true);
  });

  it('answers as Slack does for reactions twice, unknown messages, users and channels', async () => {
    const posted = await bot.chat.postMessage({ channel: 'C0ONE', text: 'draft' });
    const ts = posted.ts ?? '';
    await bot.reactions.add({ channel: 'C0ONE', timestamp: ts, name: 'eyes' });
    await expect(
      bot.reactions.add({ channel: 'C0ONE', timestamp: ts, name: 'eyes' }),
    ).rejects.toMatchObject({ data: { error: 'already_reacted' } });
    await bot.reactions.remove({ channel: 'C0ONE', timestamp: ts, name: 'eyes' });
    await expect(
      bot.reactions.remove({ channel: 'C0ONE', timestamp: ts, name: 'eyes' }),
    ).rejects.toMatchObject({ data: { error: 'no_reaction' } });

    const updated = await bot.chat.update({ channel: 'C0ONE', ts, text: 'final' });
    expect(updated.message).toMatchObject({ text: 'final', ts });
    await expect(
      bot.chat.update({ channel: 'C0ONE', ts: '1.000001', text: 'x' }),
    ).rejects.toMatchObject({ data: { error: 'message_not_found' } });

    const ephemeral = await bot.chat.postEphemeral({
      channel: 'C0ONE',
      user: 'U0ALICE',
      text: 'psst',
    });
    expect(ephemeral.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    const alice = await bot.users.info({ user: 'U0ALICE' });
    expect(alice.user).toMatchObject({ id: 'U0ALICE', name: 'alice', real_name: 'Alice A' });
    await expect(bot.users.info({ user: 'U0NOBODY' })).rejects.toMatchObject({
      data: { error: 'user_not_found' },
    });
    const channel = await bot.conversations.info({ channel: 'C0ONE' });
    expect(channel.channel).toMatchObject({ id: 'C0ONE', is_channel: true });
  });

  it('says who the bot is on auth.test', async () => {
    const auth = await bot.auth.test();
    expect(auth).toMatchObject({
      ok: true,
      user_id: fake.identity.botUserId,
      bot_id: fake.identity.botId,
      team_id: fake.identity.teamId,
    });
  });

  it('refuses a wrong token, and each token outside its own methods', async () => {
    const cases = [
      client('xoxb-wrong').auth.test(),
      client(fake.identity.appToken).chat.postMessage({ channel: 'C0ONE', text: 'hi' }),
      bot.apps.connections.open(),
    ];
    for (const call of cases) {
      await expect(call).rejects.toMatchObject({
        code: ErrorCode.PlatformError,
        data: { ok: false, error: 'invalid_auth' },
      });
    }
    const opened = await client(fake.identity.appToken).apps.connections.open();
    expect(opened.url).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/socket\\?ticket=`));
    expect(fake.callsTo('apps.connections.open').map((call) => call.token)).toEqual([
      fake.identity.botToken,
      fake.identity.appToken,
    ]);
  });

  it('answers any other method with unknown_method', async () => {
    await expect(bot.apiCall('files.nothing')).rejects.toMatchObject({
      data: { error: 'unknown_method' },
    });
    expect(fake.callsTo('files.nothing')).toHaveLength(1);
  });

  it('accepts JSON bodies with the token in the Authorization header', async () => {
    const blocks = [{ type: 'divider' }];
    const response = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fake.identity.botToken}`,
        'content-type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify({ channel: 'C0ONE', text: '[not json] {either}', blocks }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: 'C0ONE' });
    expect(fake.calls[0]?.args).toEqual({ channel: 'C0ONE', text: '[not json] {either}', blocks });
  });
});
