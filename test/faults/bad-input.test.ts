import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { rawRequest, type RawResponse } from '../integration/api/raw-request.js';
import { startFakeGithub, type FakeGithub } from '../fakes/fake-github/start-fake-github.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { signSlackRequest } from '../fakes/fake-slack/sign-slack-request.js';
import {
  loadExamplePayload,
  signDelivery,
  withComment,
} from '../fakes/fake-github/webhook-delivery.js';
import { freePort } from '../helpers/free-port.js';
import { eventsOf } from './support/serve-log.js';
import { stateSnapshot } from './support/state-snapshot.js';
import { streamRequest } from './support/stream-request.js';

const webhookSecret = 'webhook-secret-for-bad-input';
const signingSecret = 'signing-secret-for-bad-input';
const operator = 'U0DANA';
const json = { 'content-type': 'application/json' };
const esc = '\u001b';

/**
 * Hostile and broken input against one running serve, on every surface it listens on: the control
 * socket, the GitHub webhook and Slack's HTTP mode. Each case gets a clear error and leaves the
 * state folder exactly as it was.
 */
describe('bad input against a running serve', () => {
  let slack: FakeSlack;
  let github: FakeGithub;
  let fixture: ServeFixture;
  let port: number;
  let before: Record<string, string>;

  const socketPath = () => path.join(fixture.stateRoot, 'control.sock');
  const control = (method: string, target: string, body?: string | Buffer, headers = json) =>
    rawRequest({
      socketPath: socketPath(),
      method,
      path: target,
      headers,
      ...(body === undefined ? {} : { body }),
    });
  const errorOf = (response: RawResponse) =>
    (response.json as { error?: string; code?: string }) ?? {};

  beforeAll(async () => {
    slack = await startFakeSlack({ users: { [operator]: { name: 'dana' } } });
    github = await startFakeGithub();
    port = await freePort();
    fixture = await createServeFixture(
      () => ({
        slack: { enabled: true, mode: 'http', channel: 'C0OPS', authorizedUsers: [operator] },
        github: { repos: [{ repo: 'octo/repo', path: 'work' }], authorizedUsers: ['octocat'] },
        http: { host: '127.0.0.1', port },
      }),
      {
        env: {
          SLACK_BOT_TOKEN: slack.identity.botToken,
          SLACK_SIGNING_SECRET: signingSecret,
          SLACK_API_URL: slack.apiUrl,
          GITHUB_TOKEN: github.token,
          GITHUB_API_URL: github.apiUrl,
          GITHUB_WEBHOOK_SECRET: webhookSecret,
        },
      },
    );
    await fixture.start();
    const created = await fixture.cli(['standing', 'create', 'target']);
    expect(created.exitCode, created.stderr).toBe(0);
    // Let the start settle (announcement, its binding, the agent's first answer) before comparing.
    await eventually(
      async () => (await eventsOf(fixture)).some((e) => e.event === 'agent.posted'),
      {
        timeoutMs: 15_000,
      },
    );
    await eventually(async () =>
      (await eventsOf(fixture)).some((e) => e.event === 'standing.announced'),
    );
  }, 60_000);

  afterAll(async () => {
    await fixture?.dispose();
    await github?.stop();
    await slack?.stop();
  });

  beforeEach(async () => {
    before = await stateSnapshot(fixture.stateRoot);
  });

  afterEach(async () => {
    expect(await stateSnapshot(fixture.stateRoot), 'the state folder changed').toEqual(before);
    expect((await control('GET', '/api/v1/health')).status).toBe(200);
  });

  // Declared in Content-Length, the refusal comes before a byte of it is read; a chunked body is
  // read and dropped up to a bound first, so the client still sending it reads the answer.
  it.each([
    ['declared in Content-Length', true],
    ['streamed in chunks', false],
  ])('control socket: an oversized body %s is 413', async (_label, declareLength) => {
    for (let attempt = 0; attempt < (declareLength ? 1 : 5); attempt += 1) {
      const answer = await streamRequest({
        socketPath: socketPath(),
        path: '/api/v1/standing-sessions',
        headers: json,
        totalBytes: 4 * 1024 * 1024,
        declareLength,
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'payload_too_large' });
      if (declareLength) expect(answer.sent).toBe(0);
    }
  });

  it('control socket: invalid UTF-8 and malformed JSON are 400', async () => {
    const cases: Array<[string, Buffer | string]> = [
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['a lone surrogate half', Buffer.from('{"name":"\xed\xa0\x80"}', 'latin1')],
      ['truncated JSON', '{"name": "x"'],
      ['trailing garbage', '{"name": "x"} {'],
    ];
    for (const [what, body] of cases) {
      const answer = await control('POST', '/api/v1/standing-sessions', body);
      expect({ what, status: answer.status }).toEqual({ what, status: 400 });
      expect(errorOf(answer).code).toBe('bad_request');
    }
    const say = await control('POST', '/api/v1/standing-sessions/target/say', '{"text": ');
    expect(say.status).toBe(400);
  });

  it('control socket: control characters in names are 400, and so are empty messages', async () => {
    const names = [
      `bad${esc}[2Jname`,
      'tab\tname',
      'new\n',
      'bell\u0007',
      'del\u007f',
      'c1\u009bx',
    ];
    for (const name of names) {
      const create = await control('POST', '/api/v1/standing-sessions', JSON.stringify({ name }));
      expect({ name, status: create.status }).toEqual({ name, status: 400 });
      expect(errorOf(create).code).toBe('invalid_name');
      expect(create.text).not.toContain(esc);
      const get = await control('GET', `/api/v1/standing-sessions/${encodeURIComponent(name)}`);
      expect({ name, status: get.status }).toEqual({ name, status: 400 });
      const say = await control(
        'POST',
        `/api/v1/standing-sessions/${encodeURIComponent(name)}/say`,
        JSON.stringify({ text: 'hi' }),
      );
      expect({ name, status: say.status }).toEqual({ name, status: 400 });
    }
    for (const text of ['', '   \n\t', `${esc}\u0007\u007f\r\u0000`]) {
      const say = await control(
        'POST',
        '/api/v1/standing-sessions/target/say',
        JSON.stringify({ text }),
      );
      expect({ text, status: say.status }).toEqual({ text, status: 400 });
      expect(errorOf(say).code).toBe('empty_message');
    }
  });

  it('CLI: control characters in names exit 2 and are shown escaped', async () => {
    const cases = [
      ['standing', 'create', `bad${esc}[31mname`],
      ['standing', 'say', 'tab\tname', 'hello'],
      ['standing', 'get', 'del\u007f'],
      ['standing', 'start', 'bell\u0007'],
      ['standing', 'delete', 'csi\u009b2J'],
    ];
    for (const args of cases) {
      const result = await fixture.cli(args);
      expect({ args, exit: result.exitCode }).toEqual({ args, exit: 2 });
      expect(result.stderr).toMatch(/not a valid name/);
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });

  it('GitHub webhook: oversized 413, missing or wrong signature 401, bad bodies 400', async () => {
    const url = `http://127.0.0.1:${port}/github/webhook`;
    const example = loadExamplePayload('issue_comment', 'created');
    const payload = withComment(example, {
      body: 'the-loop start',
      login: 'octocat',
      repo: 'octo/repo',
      number: 12,
      commentId: 9001,
    });
    const signed = signDelivery(webhookSecret, payload, { event: 'issue_comment' });
    const post = (headers: Record<string, string>, body: string | Buffer) =>
      rawRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/github/webhook',
        headers,
        body,
      });

    for (const declareLength of [true, false]) {
      const big = await closedMidWriteRetried(() =>
        streamRequest({
          port,
          path: '/github/webhook',
          headers: { ...signed.headers },
          totalBytes: 8 * 1024 * 1024,
          declareLength,
        }),
      );
      expect({ declareLength, status: big.status }).toEqual({ declareLength, status: 413 });
    }

    const { 'x-hub-signature-256': _signature, ...unsigned } = signed.headers;
    expect((await post(unsigned, signed.body)).status).toBe(401);
    const forged = signDelivery('not-the-secret', payload, { event: 'issue_comment' });
    expect((await post({ ...forged.headers }, forged.body)).status).toBe(401);

    const truncated = signDelivery(webhookSecret, signed.body.slice(0, 100), {
      event: 'issue_comment',
    });
    const badJson = await post({ ...truncated.headers }, truncated.body);
    expect(badJson.status).toBe(400);

    // Signed over its raw bytes, as GitHub signs: not UTF-8 is a bad body, not a bad signature.
    const raw = Buffer.concat([
      Buffer.from('{"action":"created","x":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const { createHmac } = await import('node:crypto');
    const rawSignature = `sha256=${createHmac('sha256', webhookSecret).update(raw).digest('hex')}`;
    const notUtf8 = await post({ ...signed.headers, 'x-hub-signature-256': rawSignature }, raw);
    expect(notUtf8.status).toBe(400);

    expect(github.writeCalls()).toEqual([]);
    expect(url).toContain(String(port));
  });

  it('Slack HTTP mode: missing, wrong and stale signatures are 401', async () => {
    const body = slack.eventsApiHttpBody(
      slack.messageEvent({
        channel: 'C0OPS',
        user: operator,
        text: 'sneaky',
        threadTs: '1700000000.000100',
      }),
    );
    const post = (headers: Record<string, string>) =>
      rawRequest({ port, host: '127.0.0.1', method: 'POST', path: '/slack/events', headers, body });
    expect((await post(json)).status).toBe(401);
    const wrong = signSlackRequest('not-the-secret', body);
    expect((await post({ ...wrong })).status).toBe(401);
    const stale = signSlackRequest(signingSecret, body, Math.floor(Date.now() / 1000) - 10 * 60);
    expect((await post({ ...stale })).status).toBe(401);
  });

  it('Slack: unknown or malformed slash commands answer with usage and change nothing', async () => {
    const command = async (text: string): Promise<string> => {
      const body = slack.slashCommandHttpBody({
        command: '/loop',
        text,
        user_id: operator,
        channel_id: 'C0OPS',
      });
      const answer = await rawRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/slack/events',
        headers: { ...signSlackRequest(signingSecret, body) },
        body,
      });
      expect({ text, status: answer.status }).toEqual({ text, status: 200 });
      return answer.text;
    };
    const unknown = await command('frobnicate target');
    expect(unknown).toMatch(/not a subcommand/);
    expect(unknown).toMatch(/create/);
    for (const text of [
      `create bad${esc}[2Jname`,
      'create UPPER',
      'delete',
      'stop target extra',
      'create ok harness=nope=1 cwd="unclosed',
      'create ok args=--dangerously-skip-permissions',
    ]) {
      const answer = await command(text);
      expect({ text, usage: /usage/.test(answer) }).toEqual({ text, usage: true });
      expect(answer).not.toContain(esc);
    }
    const listed = JSON.parse((await fixture.cli(['standing', 'list', '--json'])).stdout) as Array<{
      name: string;
    }>;
    expect(listed.map((session) => session.name)).toEqual(['target']);
  });
});

/**
 * serve answers 413 and closes while a streaming client may still be writing: the client's next
 * write can fail (EPIPE, ECONNRESET) before it has read the answer. That race is the client's, so
 * such an attempt is made again; every completed attempt must still be the 413.
 */
async function closedMidWriteRetried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (tries >= 3 || (code !== 'EPIPE' && code !== 'ECONNRESET')) throw error;
    }
  }
}
