import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { eventually } from '../helpers/eventually.js';
import { binPath, type ServeFixture } from '../helpers/run-serve.js';
import { fleetServe, loggedEvents, peoplePrompts } from './fleet-fixture.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();
const channel = 'C0OPS';
const dana = 'U0DANA';

const title = `three serves behind one Slack app${unavailable ? ` (skipped: ${unavailable})` : ''}`;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer;
  let slack: FakeSlack;
  let serves: ServeFixture[] = [];
  let threadTs = '';

  beforeAll(async () => {
    nats = await startNatsServer();
    slack = await startFakeSlack({ spread: true, users: { [dana]: { name: 'dana' } } });
    serves = [];
    for (const name of ['alpha', 'beta', 'gamma']) {
      const serve = await fleetServe(name, nats, slack);
      serves.push(serve);
      await serve.start();
    }
    await slack.socket.connections(3, 20_000);
    const [alpha] = serves;
    const created = await alpha!.cli(['standing', 'create', 'sup', '--slack-channel', channel]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['channel'] === channel && call.args['thread_ts'] === undefined,
      15_000,
    );
    threadTs = String(announcement.response?.['ts']);
    // The binding is shared with the fleet before the announcement is recorded.
    await eventually(async () => (await loggedEvents(alpha!, 'standing.announced')).length > 0, {
      timeoutMs: 10_000,
      what: 'the announcement recorded',
    });
  }, 120_000);

  afterAll(async () => {
    for (const serve of serves) await serve.dispose();
    await slack?.stop();
    await nats?.dispose();
  });

  it('every thread reply reaches the owner once and in order, whichever connection took it', async () => {
    const [alpha, beta, gamma] = serves as [ServeFixture, ServeFixture, ServeFixture];
    const texts = ['one', 'two', 'three', 'four', 'five', 'six'];
    for (const text of texts) {
      const envelope = slack.eventsApiEnvelope(
        slack.messageEvent({ channel, user: dana, text, threadTs }),
      );
      await slack.socket.send(envelope, { timeoutMs: 10_000 });
    }
    // Spread over all three connections, so each instance received two of them.
    expect(new Set(slack.socket.sentTo.values()).size).toBe(3);
    const received = await eventually(
      async () => {
        const prompts = await peoplePrompts(alpha);
        return prompts.length >= texts.length ? prompts : undefined;
      },
      { timeoutMs: 40_000, what: 'six replies in the agent of alpha' },
    );
    expect(received.map((prompt) => prompt.split('\n\n').at(-1))).toEqual(texts);
    expect(await peoplePrompts(beta)).toEqual([]);
    expect(await peoplePrompts(gamma)).toEqual([]);
    // The owner reacts; the receivers add nothing.
    await eventually(
      async () =>
        slack.callsTo('reactions.add').filter((call) => call.args['name'] === 'white_check_mark')
          .length >= texts.length,
      { timeoutMs: 20_000, what: 'a check mark on each reply' },
    );
    const eyes = slack.callsTo('reactions.add').filter((call) => call.args['name'] === 'eyes');
    expect(eyes).toHaveLength(texts.length);
    for (const receiver of [beta, gamma]) {
      const routed = await loggedEvents(receiver, 'fleet.routed');
      expect(
        routed.filter((event) => event['to'] === 'alpha' && event['kind'] === 'message'),
      ).toHaveLength(2);
    }
  });

  it('a name is the fleet’s: a second instance cannot create `sup`', async () => {
    const beta = serves[1]!;
    const refused = await beta.cli(['standing', 'create', 'sup', '--slack-channel', channel]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('instance alpha');
  });

  it('`/loop create NAME on INSTANCE` runs on that instance, whoever received it', async () => {
    const gamma = serves[2]!;
    const envelope = slack.slashCommandEnvelope({
      command: '/loop',
      text: 'create tool on gamma',
      user_id: dana,
      channel_id: channel,
    });
    await slack.socket.send(envelope, { timeoutMs: 10_000 });
    await eventually(
      async () => {
        const listed = await gamma.cli(['standing', 'list', '--json']);
        return listed.stdout.includes('"tool"');
      },
      { timeoutMs: 30_000, what: 'gamma to hold `tool`' },
    );
    const answer = await slack.waitForResponse(
      (post) => JSON.stringify(post.body).includes('Created'),
      20_000,
    );
    expect(JSON.stringify(answer.body)).toContain('tool');
  });

  it('lists the three instances live, and status says the fleet is ok', async () => {
    const alpha = serves[0]!;
    const listed = await alpha.cli(['fleet', '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const report = JSON.parse(listed.stdout) as { instances: { name: string; live: boolean }[] };
    expect(report.instances.filter((row) => row.live).map((row) => row.name)).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
    const status = await alpha.cli(['status']);
    expect(status.stdout).toMatch(/fleet.*ok \(3 instances\)/);
    const envelope = slack.slashCommandEnvelope({
      command: '/loop',
      text: 'instances',
      user_id: dana,
      channel_id: channel,
    });
    await slack.socket.send(envelope, { timeoutMs: 10_000 });
    const answer = await slack.waitForResponse(
      (post) => JSON.stringify(post.body).includes('`gamma`'),
      20_000,
    );
    expect(JSON.stringify(answer.body)).toMatch(/`alpha` — live on .*`beta` — live/);
  });

  it('refuses to start a second live instance with a taken name, naming its host and id', async () => {
    const twin = await fleetServe('beta', nats, slack);
    try {
      const run = await execa(process.execPath, [binPath, 'serve', '--config', twin.configPath], {
        env: {
          SLACK_BOT_TOKEN: slack.identity.botToken,
          SLACK_APP_TOKEN: slack.identity.appToken,
          SLACK_API_URL: slack.apiUrl,
        },
        reject: false,
        timeout: 60_000,
      });
      expect(run.exitCode).toBe(1);
      expect(String(run.stderr)).toMatch(
        /already has a live instance named "beta" \(host .+, instance id [0-9a-f-]{36}\)/,
      );
    } finally {
      await twin.dispose();
    }
  });
});
