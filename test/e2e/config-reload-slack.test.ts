import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts, untagged } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';

const channel = 'C0OPS';
const dana = 'U0DANA';
const eve = 'U0EVE';

describe('config reload with the real Bolt app against the fake Slack', () => {
  let slack: FakeSlack | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
  });

  it('a Slack user authorized by a reload is obeyed at once, without a restart', async () => {
    const fake = await startFakeSlack({
      users: { [dana]: { name: 'dana' }, [eve]: { name: 'eve' } },
    });
    slack = fake;
    const serve = await createServeFixture(
      () => ({
        slack: { enabled: true, mode: 'socket', channel, authorizedUsers: [dana] },
        http: { host: '127.0.0.1', port: 0 },
      }),
      {
        env: {
          SLACK_BOT_TOKEN: fake.identity.botToken,
          SLACK_APP_TOKEN: fake.identity.appToken,
          SLACK_API_URL: fake.apiUrl,
        },
      },
    );
    fixture = serve;
    await serve.start();
    await fake.socket.connected(15_000);
    const created = await serve.cli(['standing', 'create', 'ops', '--slack-channel', channel]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await fake.waitForCall(
      'chat.postMessage',
      (call) => call.args['channel'] === channel && call.args['thread_ts'] === undefined,
      15_000,
    );
    const threadTs = String(announcement.response?.['ts']);
    const reply = (text: string) =>
      fake.socket.send(
        fake.eventsApiEnvelope(fake.messageEvent({ channel, user: eve, text, threadTs })),
      );
    const prompts = async () =>
      (await agentPrompts(serve.agentHome))
        .map(untagged)
        .filter((prompt) => !prompt.startsWith('[the-loop]'));

    // Before the reload eve is refused.
    await reply('before');
    await fake.waitForCall('chat.postEphemeral', (call) => call.args['user'] === eve, 10_000);

    const raw = parse(await readFile(serve.configPath, 'utf8')) as Record<string, unknown>;
    const slackBlock = raw['slack'] as Record<string, unknown>;
    await writeFile(
      serve.configPath,
      stringify({ ...raw, slack: { ...slackBlock, authorizedUsers: [dana, eve], mode: 'http' } }),
    );
    const reloaded = await serve.cli(['reload', '--json']);
    expect(reloaded.exitCode, reloaded.stderr).toBe(0);
    expect(JSON.parse(reloaded.stdout)).toMatchObject({
      applied: ['slack.authorizedUsers', 'slack.approvers'],
      needsRestart: ['slack.mode'],
    });

    // The same connection (the mode needs a restart and stays socket) now obeys eve.
    await reply('after');
    const received = await eventually(
      async () => {
        const seen = await prompts();
        return seen.some((prompt) => prompt.endsWith('after')) ? seen : undefined;
      },
      { timeoutMs: 15_000, what: "eve's message after the reload" },
    );
    expect(received.map((prompt) => prompt.split('\n\n')[1])).toEqual(['after']);
    expect(fake.callsTo('chat.postEphemeral')).toHaveLength(1);
  }, 60_000);
});
