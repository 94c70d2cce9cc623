import {
  ErrorCode,
  LogLevel,
  WebClient,
  WebClientEvent,
  type WebAPIHTTPError,
  type WebAPIPlatformError,
} from '@slack/web-api';
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
  fake = await startFakeSlack();
  bot = client(fake.identity.botToken);
});

afterEach(async () => {
  await fake.stop();
});

describe('failure injection', () => {
  it('sends 429 with Retry-After, which WebClient honours before retrying', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 1 });
    const patient = client(fake.identity.botToken, 2);
    const waits: number[] = [];
    patient.on(WebClientEvent.RATE_LIMITED, (seconds: number) => waits.push(seconds));

    const posted = await patient.chat.postMessage({ channel: 'C0ONE', text: 'hi' });

    expect(posted.ok).toBe(true);
    expect(waits).toEqual([1]);
    const [limited, retried] = fake.callsTo('chat.postMessage');
    expect(limited?.failedWith).toEqual({ status: 429, retryAfterSeconds: 1 });
    expect(retried?.failedWith).toBeUndefined();
    expect(retried?.args).toEqual(limited?.args);
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('surfaces okFalse as a platform error, only for the planned number of calls', async () => {
    fake.failNext('chat.postMessage', { okFalse: 'channel_not_found' }, 2);
    for (let i = 0; i < 2; i += 1) {
      const error = await bot.chat.postMessage({ channel: 'C0ONE', text: 'hi' }).catch((e) => e);
      expect((error as WebAPIPlatformError).code).toBe(ErrorCode.PlatformError);
      expect((error as WebAPIPlatformError).data.error).toBe('channel_not_found');
    }
    await expect(bot.chat.postMessage({ channel: 'C0ONE', text: 'hi' })).resolves.toMatchObject({
      ok: true,
    });
    expect(fake.calls.map((call) => call.failedWith)).toEqual([
      { okFalse: 'channel_not_found' },
      { okFalse: 'channel_not_found' },
      undefined,
    ]);
  });

  it('sends HTTP 500, which WebClient reports as an HTTP error', async () => {
    fake.failNext('reactions.add', { status: 500 });
    const error = (await bot.reactions
      .add({ channel: 'C0ONE', timestamp: '1700000000.000100', name: 'eyes' })
      .catch((e) => e)) as WebAPIHTTPError;
    expect(error.code).toBe(ErrorCode.HTTPError);
    expect(error.statusCode).toBe(500);
    expect(fake.calls[0]?.failedWith).toEqual({ status: 500 });
  });

  it('cuts every connection while down, and serves again when back up', async () => {
    await bot.auth.test(); // leaves a kept-alive connection, which must be cut too
    fake.setDown(true);
    await expect(bot.auth.test()).rejects.toMatchObject({ code: ErrorCode.RequestError });
    await expect(bot.chat.postMessage({ channel: 'C0ONE', text: 'hi' })).rejects.toMatchObject({
      code: ErrorCode.RequestError,
    });
    expect(fake.calls).toHaveLength(1);
    fake.setDown(false);
    await expect(bot.auth.test()).resolves.toMatchObject({ ok: true });
  });
});

describe('waiting and resetting', () => {
  it('resolves waitForCall when a matching call arrives, and times out naming it', async () => {
    const waiting = fake.waitForCall('chat.postMessage', (call) => call.args.text === 'second');
    await bot.chat.postMessage({ channel: 'C0ONE', text: 'first' });
    await bot.chat.postMessage({ channel: 'C0ONE', text: 'second' });
    expect((await waiting).args.channel).toBe('C0ONE');
    await expect(fake.waitForCall('reactions.add', undefined, 50)).rejects.toThrow(
      /no reactions\.add call within 50 ms/,
    );
  });

  it('forgets calls and planned failures on reset', async () => {
    fake.failNext('auth.test', { okFalse: 'internal_error' });
    await bot.chat.postMessage({ channel: 'C0ONE', text: 'hi' });
    fake.reset();
    expect(fake.calls).toHaveLength(0);
    await expect(bot.auth.test()).resolves.toMatchObject({ ok: true });
  });
});
