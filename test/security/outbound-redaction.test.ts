import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createApiClient } from '../../src/api/create-api-client.js';
import { startFullFlow, sessionToken, type FullFlow } from './support/start-full-flow.js';

/**
 * docs/design.md §18: one redactor on every outbound text. Through the real Bolt and Octokit
 * clients against the fake Slack and the fake GitHub: an agent's reply, a progress line, a
 * permission request's summary and suggestion texts, a file name and a GitHub comment, each
 * carrying serve's own secrets and secrets of known shapes, reach Slack and GitHub redacted; a
 * file holding one of serve's own secret values is refused, naming which.
 */
describe('what leaves for Slack and GitHub', () => {
  let flow: FullFlow;
  let agentToken = '';
  let workItemToken = '';
  const shapes = {
    sk: 'sk-live-0123456789abcdef',
    ghp: 'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
    aws: 'AKIAIOSFODNN7EXAMPLE',
    pem: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
  };

  const socketPath = () => path.join(flow.fixture.stateRoot, 'control.sock');
  const asSession = (token: string, route: string, body: unknown, timeoutMs = 15_000) =>
    createApiClient({ socketPath: socketPath(), timeoutMs }).request('POST', route, body, {
      'X-The-Loop-Session-Token': token,
    });
  const slackText = () => JSON.stringify(flow.slack.calls.map((call) => call.args));
  const githubText = () => JSON.stringify(flow.github.calls.map((call) => call.body));

  beforeAll(async () => {
    flow = await startFullFlow();
    const agent = flow.sessions.find((name) => name.includes('agent'));
    const item = flow.sessions.find((name) => !name.includes('agent') && !name.includes('shell'));
    agentToken = await sessionToken(flow.fixture.socket, agent ?? '');
    workItemToken = await sessionToken(flow.fixture.socket, item ?? '');
  }, 120_000);

  afterAll(async () => {
    await flow?.dispose();
  });

  it("redacts an agent's reply in Slack and on GitHub", async () => {
    const text =
      `bot ${flow.secrets['slackBotToken']} hook ${flow.secrets['webhookSecret']} ` +
      `api ${flow.secrets['apiToken']} ${shapes.sk} ${shapes.ghp} ${shapes.aws}\n${shapes.pem}\n` +
      'export DB_PASSWORD=hunter22 and {"client_secret": "s3cr3t"} Authorization: Bearer abc.def';
    const slack = await asSession(agentToken, '/api/v1/post', { text: `to slack ${text}` });
    expect(slack.status).toBe(200);
    const github = await asSession(workItemToken, '/api/v1/post', { text: `to github ${text}` });
    expect(github.status).toBe(200);
    const posted = String(
      flow.slack
        .callsTo('chat.postMessage')
        .find((call) => String(call.args['text']).includes('to slack'))?.args['text'],
    );
    expect(posted).toContain('DB_PASSWORD=[redacted]');
    expect(posted).toContain('Bearer [redacted]');
    const comment = flow.github.calls
      .map((call) => JSON.stringify(call.body))
      .find((body) => body.includes('to github'));
    expect(comment).toContain('[redacted]');
    for (const leak of [
      ...Object.values(shapes),
      'hunter22',
      's3cr3t',
      'abc.def',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    ]) {
      expect(posted, leak).not.toContain(leak);
      expect(comment, leak).not.toContain(leak);
    }
  }, 60_000);

  it('redacts the progress line and the permission summary and suggestions', async () => {
    const command = `API_KEY=${shapes.sk} curl -H "Authorization: Bearer ${shapes.ghp}" x`;
    const pre = await asSession(agentToken, '/api/v1/hooks/PreToolUse', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
    });
    expect(pre.status).toBeLessThan(300);
    await flow.slack.waitForCall('chat.postMessage', (call) =>
      String(call.args['text']).includes('Bash'),
    );
    // The hook waits for a decision; it is denied once the request is posted.
    const waiting = createApiClient({ socketPath: socketPath(), timeoutMs: 20_000 })
      .request(
        'POST',
        '/api/v1/hooks/PermissionRequest',
        {
          hook_event_name: 'PermissionRequest',
          tool_name: 'Bash',
          tool_input: { command },
          permission_suggestions: [
            {
              type: 'addRules',
              behavior: 'allow',
              destination: 'session',
              rules: [
                { toolName: 'Bash', ruleContent: `curl -H "Authorization: Bearer ${shapes.ghp}"` },
              ],
            },
          ],
        },
        { 'X-The-Loop-Session-Token': agentToken },
      )
      .catch(() => undefined);
    const request = await flow.slack.waitForCall('chat.postMessage', (call) =>
      JSON.stringify(call.args).includes('permission_allow'),
    );
    const shown = JSON.stringify(request.args);
    expect(shown).toContain('[redacted]');
    for (const leak of [shapes.sk, shapes.ghp, shapes.ghp.slice(0, 12)]) {
      expect(slackText(), leak).not.toContain(leak);
    }
    const open = await createApiClient({ socketPath: socketPath() }).request<{ id: string }[]>(
      'GET',
      '/api/v1/permissions',
    );
    for (const entry of open.body) {
      await createApiClient({ socketPath: socketPath() }).request(
        'POST',
        `/api/v1/permissions/${entry.id}/deny`,
        {},
      );
    }
    await waiting;
  }, 60_000);

  it('redacts a file name, and refuses a file that holds an own secret value, naming it', async () => {
    const name = `notes-${shapes.ghp}.txt`;
    const named = await asSession(agentToken, '/api/v1/post', {
      text: 'a file',
      files: [{ name, contentBase64: Buffer.from('plain notes').toString('base64') }],
    });
    expect(named.status).toBe(200);
    await flow.slack.waitForCall('files.completeUploadExternal');
    expect(slackText()).not.toContain(shapes.ghp);
    const uploads = flow.slack.uploadedFiles.map((file) => file.filename);
    expect(uploads).toContain('notes-[redacted].txt');

    const before = flow.slack.uploadedFiles.length;
    const holding = await asSession(agentToken, '/api/v1/post', {
      text: 'the env',
      files: [
        {
          name: 'env.txt',
          contentBase64: Buffer.from(`SLACK_BOT_TOKEN=${flow.secrets['slackBotToken']}\n`).toString(
            'base64',
          ),
        },
      ],
    });
    expect(holding.status).toBe(400);
    expect(holding.body).toMatchObject({ code: 'file_holds_secret' });
    expect(JSON.stringify(holding.body)).toContain('SLACK_BOT_TOKEN');
    expect(JSON.stringify(holding.body)).not.toContain(flow.secrets['slackBotToken']);
    expect(flow.slack.uploadedFiles.length).toBe(before);
  }, 60_000);

  it('no secret serve was given reaches the fake Slack or the fake GitHub', () => {
    const leaks = Object.entries(flow.secrets).flatMap(([name, value]) => [
      ...(slackText().includes(value) ? [`${name} in Slack`] : []),
      ...(githubText().includes(value) ? [`${name} on GitHub`] : []),
    ]);
    expect(leaks).toEqual([]);
  });
});
