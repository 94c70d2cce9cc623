import { randomBytes } from 'node:crypto';
import { execa } from 'execa';
import { expect } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { binPath, createServeFixture, type ServeFixture } from '../../helpers/run-serve.js';
import { rawRequest } from '../../integration/api/raw-request.js';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import {
  loadExamplePayload,
  postDelivery,
  signDelivery,
  withComment,
} from '../../fakes/fake-github/webhook-delivery.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { freePort } from '../../helpers/free-port.js';
import { eventsOf } from '../../faults/support/serve-log.js';
import { sendReply, slackChannel, slackOperator } from '../../faults/support/slack-serve.js';

export interface FullFlow {
  readonly fixture: ServeFixture;
  readonly slack: FakeSlack;
  readonly github: FakeGithub;
  readonly apiPort: number;
  /** Every secret serve was given, by name. */
  readonly secrets: Readonly<Record<string, string>>;
  /** The tmux sessions the flow started, by name. */
  readonly sessions: readonly string[];
  dispose(): Promise<void>;
}

const secret = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;

/** `THE_LOOP_SESSION_TOKEN` as tmux holds it in a session's environment. */
export async function sessionToken(socket: string, session: string): Promise<string> {
  const shown = await execa('tmux', [
    '-L',
    socket,
    'show-environment',
    '-t',
    `=${session}`,
    'THE_LOOP_SESSION_TOKEN',
  ]);
  const token = /^THE_LOOP_SESSION_TOKEN=(.+)$/m.exec(shown.stdout)?.[1];
  if (!token) throw new Error(`no THE_LOOP_SESSION_TOKEN in tmux session ${session}`);
  return token;
}

/**
 * Everything on at once, at debug level, with secrets of its own: Slack (Socket Mode) and GitHub
 * (webhook) against the fakes, the TCP API with a token, a standing agent that is talked to in
 * its thread and answers through its hooks, a shell session that answers with `the-loop post`,
 * and a work-item session started from a signed GitHub comment.
 */
export async function startFullFlow(): Promise<FullFlow> {
  const secrets = {
    slackBotToken: secret('xoxb-'),
    slackAppToken: secret('xapp-'),
    slackSigningSecret: secret('signing-'),
    githubToken: secret('ghs_'),
    webhookSecret: secret('whsec-'),
    apiToken: secret('api-'),
  };
  const slack = await startFakeSlack({
    botToken: secrets.slackBotToken,
    appToken: secrets.slackAppToken,
    users: { [slackOperator]: { name: 'dana' } },
  });
  const github = await startFakeGithub({ token: secrets.githubToken });
  github.addIssue('octo', 'repo', { number: 12, title: 'Fix the build' });
  const port = await freePort();
  const apiPort = await freePort();
  const fixture = await createServeFixture(
    () => ({
      slack: {
        enabled: true,
        mode: 'socket',
        channel: slackChannel,
        authorizedUsers: [slackOperator],
      },
      github: { repos: [{ repo: 'octo/repo', path: 'work' }], authorizedUsers: ['octocat'] },
      http: { host: '127.0.0.1', port },
      api: { listen: `127.0.0.1:${apiPort}` },
    }),
    {
      env: {
        THE_LOOP_LOG_LEVEL: 'debug',
        SLACK_BOT_TOKEN: secrets.slackBotToken,
        SLACK_APP_TOKEN: secrets.slackAppToken,
        SLACK_SIGNING_SECRET: secrets.slackSigningSecret,
        SLACK_API_URL: slack.apiUrl,
        GITHUB_TOKEN: secrets.githubToken,
        GITHUB_API_URL: github.apiUrl,
        GITHUB_WEBHOOK_SECRET: secrets.webhookSecret,
        THE_LOOP_API_TOKEN: secrets.apiToken,
      },
    },
  );
  const dispose = async () => {
    await fixture.dispose();
    await github.stop();
    await slack.stop();
  };
  try {
    await fixture.start();
    await slack.socket.connected(15_000);

    // A standing agent, talked to in its Slack thread; it answers through its Stop hook.
    const created = await fixture.cli([
      'standing',
      'create',
      'agent',
      '--slack-channel',
      slackChannel,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announced = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['thread_ts'] === undefined && call.response !== undefined,
      15_000,
    );
    const threadTs = String(announced.response?.['ts']);
    await sendReply(slack, threadTs, 'hello agent');
    await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['thread_ts'] === threadTs && String(call.args['text']).includes('@dana'),
      15_000,
    );

    // A shell that answers with `the-loop post`, which sends its session token.
    const shell = await fixture.cli(['standing', 'create', 'shell', '--harness', 'shell']);
    expect(shell.exitCode, shell.stderr).toBe(0);
    const said = await fixture.cli([
      'standing',
      'say',
      'shell',
      `'${process.execPath}' '${binPath}' post 'done from the shell'`,
    ]);
    expect(said.exitCode, said.stderr).toBe(0);
    await eventually(
      async () =>
        (await eventsOf(fixture)).some(
          (entry) => entry.event === 'agent.posted' && entry['ref'] === 'standing:shell',
        ),
      { timeoutMs: 15_000, what: 'the shell to post' },
    );

    // A work-item session from a signed comment, answering on the issue.
    const payload = withComment(loadExamplePayload('issue_comment', 'created'), {
      body: 'the-loop start',
      login: 'octocat',
      repo: 'octo/repo',
      number: 12,
      commentId: 4242,
    });
    github.addComment('octo', 'repo', 12, {
      body: 'the-loop start',
      user: { login: 'octocat' },
      id: 4242,
    });
    const delivered = await postDelivery(
      `http://127.0.0.1:${port}/github/webhook`,
      signDelivery(secrets.webhookSecret, payload, { event: 'issue_comment' }),
    );
    expect(delivered.status).toBe(202);
    await github.waitForCall('POST', /\/issues\/12\/comments$/, 20_000);

    // The TCP API, with and without its token.
    for (const authorization of [`Bearer ${secrets.apiToken}`, 'Bearer wrong']) {
      await rawRequest({
        host: '127.0.0.1',
        port: apiPort,
        method: 'GET',
        path: '/api/v1/status',
        headers: { authorization },
      });
    }
    const listed = await execa('tmux', [
      '-L',
      fixture.socket,
      'list-sessions',
      '-F',
      '#{session_name}',
    ]);
    // The control-mode client's own session runs only `sleep` and holds no token.
    const sessions = listed.stdout
      .split('\n')
      .filter((name) => name !== '' && !name.startsWith('loop-control-'));
    expect(sessions).toHaveLength(3);
    const sessionSecrets: Record<string, string> = {};
    for (const session of sessions) {
      sessionSecrets[`session token of ${session}`] = await sessionToken(fixture.socket, session);
    }
    return {
      fixture,
      slack,
      github,
      apiPort,
      secrets: { ...secrets, ...sessionSecrets },
      sessions,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
