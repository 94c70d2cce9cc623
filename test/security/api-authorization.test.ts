import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeFixture } from '../helpers/run-serve.js';
import { rawRequest } from '../integration/api/raw-request.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { freePort } from '../helpers/free-port.js';
import { slackOperator, startSlackServe } from '../faults/support/slack-serve.js';
import { sessionToken } from './support/start-full-flow.js';

const apiToken = 'api-token-for-authorization-tests-0123456789';

describe('who may use the control plane', () => {
  let slack: FakeSlack;
  let fixture: ServeFixture;
  let apiPort: number;

  beforeAll(async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    apiPort = await freePort();
    fixture = await startSlackServe(slack, {
      extra: () => ({ api: { listen: `127.0.0.1:${apiPort}` } }),
      env: { THE_LOOP_API_TOKEN: apiToken },
    });
  }, 60_000);

  afterAll(async () => {
    await fixture?.dispose();
    await slack?.stop();
  });

  const tcp = (
    method: string,
    target: string,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    rawRequest({
      host: '127.0.0.1',
      port: apiPort,
      method,
      path: target,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body }),
    });

  it('the TCP API refuses a request without the token or with a wrong one (401), and serves it with the token', async () => {
    const refusals: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-the-token' },
      { authorization: `Bearer ${apiToken}x` },
      { authorization: `Bearer ${apiToken.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`user:${apiToken}`).toString('base64')}` },
      { authorization: apiToken },
      { 'x-the-loop-session-token': apiToken },
    ];
    for (const headers of refusals) {
      for (const [method, target] of [
        ['GET', '/api/v1/status'],
        ['GET', '/api/v1/standing-sessions'],
        ['POST', '/api/v1/standing-sessions'],
        ['GET', '/api/v1/nowhere'],
      ] as const) {
        const answer = await tcp(
          method,
          target,
          headers,
          method === 'POST' ? '{"name":"intruder"}' : undefined,
        );
        expect({ headers, target, status: answer.status }).toEqual({
          headers,
          target,
          status: 401,
        });
        expect(answer.headers['www-authenticate']).toBe('Bearer');
      }
    }
    const inQuery = await tcp('GET', `/api/v1/status?token=${apiToken}`);
    expect(inQuery.status).toBe(401);

    const ok = await tcp('GET', '/api/v1/standing-sessions', {
      authorization: `Bearer ${apiToken}`,
    });
    expect(ok.status).toBe(200);
    const created = await tcp(
      'POST',
      '/api/v1/standing-sessions',
      { authorization: `Bearer ${apiToken}` },
      JSON.stringify({ name: 'viatcp', start: false }),
    );
    expect(created.status).toBe(201);
    const listed = JSON.parse((await fixture.cli(['standing', 'list', '--json'])).stdout) as Array<{
      name: string;
    }>;
    expect(listed.map((session) => session.name)).toEqual(['viatcp']);
    const deleted = await tcp('DELETE', '/api/v1/standing-sessions/viatcp', {
      authorization: `Bearer ${apiToken}`,
    });
    expect(deleted.status).toBe(200);
  });

  it('a session token speaks only as its own session; a made-up one is 403', async () => {
    const threads: Record<string, string> = {};
    for (const name of ['alice', 'bob']) threads[name] = await createAnnouncedShell(name);
    const alice = await sessionToken(fixture.socket, 'loop-standing-alice');
    const bob = await sessionToken(fixture.socket, 'loop-standing-bob');
    expect(alice).not.toBe(bob);

    const socketPath = path.join(fixture.stateRoot, 'control.sock');
    const post = (token: string | undefined, body: Record<string, unknown>) =>
      rawRequest({
        socketPath,
        method: 'POST',
        path: '/api/v1/post',
        headers: {
          'content-type': 'application/json',
          ...(token === undefined ? {} : { 'x-the-loop-session-token': token }),
        },
        body: JSON.stringify(body),
      });

    // Alice's token, with a body that tries to name Bob: it lands in Alice's thread only.
    const asAlice = await post(alice, {
      text: 'said by alice',
      ref: 'standing:bob',
      session: 'bob',
      name: 'bob',
    });
    expect(asAlice.status).toBe(200);
    const landed = await slack.waitForCall(
      'chat.postMessage',
      (call) => String(call.args['text']).includes('said by alice'),
      10_000,
    );
    expect(landed.args['thread_ts']).toBe(threads['alice']);
    // Over TCP a session token still needs the API token too, and still speaks only as itself.
    const tcpWithout = await tcp(
      'POST',
      '/api/v1/post',
      { 'x-the-loop-session-token': bob },
      '{"text":"x"}',
    );
    expect(tcpWithout.status).toBe(401);
    const tcpAsBob = await tcp(
      'POST',
      '/api/v1/post',
      { authorization: `Bearer ${apiToken}`, 'x-the-loop-session-token': bob },
      JSON.stringify({ text: 'said by bob', ref: 'standing:alice' }),
    );
    expect(tcpAsBob.status).toBe(200);
    const bobLanded = await slack.waitForCall(
      'chat.postMessage',
      (call) => String(call.args['text']).includes('said by bob'),
      10_000,
    );
    expect(bobLanded.args['thread_ts']).toBe(threads['bob']);

    const forged = await post('made-up-token-0000000000000000', { text: 'forged' });
    expect(forged.status).toBe(403);
    const missing = await post(undefined, { text: 'anonymous' });
    expect(missing.status).toBe(401);
    const hook = await rawRequest({
      socketPath,
      method: 'POST',
      path: '/api/v1/hooks/Stop',
      headers: { 'content-type': 'application/json', 'x-the-loop-session-token': 'made-up' },
      body: JSON.stringify({ last_assistant_message: 'forged hook' }),
    });
    expect(hook.status).toBe(403);

    // A stopped session's token is revoked.
    expect((await fixture.cli(['standing', 'stop', 'alice'])).exitCode).toBe(0);
    expect((await post(alice, { text: 'after the stop' })).status).toBe(403);

    const texts = slack.callsTo('chat.postMessage').map((call) => String(call.args['text']));
    expect(texts.filter((text) => /forged|anonymous|after the stop/.test(text))).toEqual([]);
    expect(texts.filter((text) => text.includes('said by'))).toHaveLength(2);
  });

  async function createAnnouncedShell(name: string): Promise<string> {
    const created = await fixture.cli([
      'standing',
      'create',
      name,
      '--harness',
      'shell',
      '--slack-channel',
      'C0OPS',
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === undefined && String(call.args['text']).includes(`\`${name}\``),
      15_000,
    );
    return String(announcement.response?.['ts']);
  }
});
