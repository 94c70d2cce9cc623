import { afterEach, describe, expect, it } from 'vitest';
import { signSlackRequest } from '../fakes/fake-slack/sign-slack-request.js';
import {
  startFakeSlack,
  type FakeSlack,
  type WebApiCall,
} from '../fakes/fake-slack/start-fake-slack.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { loggedEvents } from './fleet-fixture.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();
const channel = 'C0OPS';
const dana = 'U0DANA';
const signingSecret = 'shh-fleet-signing-secret';
const title = `HTTP mode in a fleet: commands and clicks go to their owner (docs/design.md §21)${unavailable ? ` (skipped: ${unavailable})` : ''}`;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer | undefined;
  let slack: FakeSlack | undefined;
  const serves: ServeFixture[] = [];

  afterEach(async () => {
    for (const serve of serves.splice(0)) await serve.dispose();
    await slack?.stop();
    await nats?.dispose();
  });

  const httpServe = async (name: string, port: number): Promise<ServeFixture> => {
    const serve = await createServeFixture(
      () => ({
        instance: { name, scope: { mode: 'open' } },
        slack: { enabled: true, mode: 'http', channel, authorizedUsers: [dana], approvers: [dana] },
        http: { host: '127.0.0.1', port },
        permissions: { timeoutSeconds: 120 },
        fleet: { nats: nats!.url, retention: '1h' },
      }),
      {
        env: {
          SLACK_BOT_TOKEN: slack!.identity.botToken,
          SLACK_SIGNING_SECRET: signingSecret,
          SLACK_API_URL: slack!.apiUrl,
        },
      },
    );
    serves.push(serve);
    await serve.start();
    return serve;
  };

  it('the instance that takes HTTP routes a slash command and a permission click to the owner', async () => {
    nats = await startNatsServer();
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    const webPort = await freePort();
    const web = await httpServe('web', webPort);
    const owner = await httpServe('owner', await freePort());
    const post = async (body: string) => {
      const answer = await fetch(`http://127.0.0.1:${webPort}/slack/events`, {
        method: 'POST',
        body,
        headers: signSlackRequest(signingSecret, body) as unknown as Record<string, string>,
      });
      await answer.text();
      return answer.status;
    };

    // `/loop create tool on owner`, sent to the instance that has the public URL.
    const slash = slack.slashCommandHttpBody({
      command: '/loop',
      text: 'create tool on owner',
      user_id: dana,
      channel_id: channel,
    });
    expect(await post(slash)).toBe(200);
    await eventually(
      async () => (await owner.cli(['standing', 'list', '--json'])).stdout.includes('"tool"'),
      { timeoutMs: 30_000, what: 'the owner to hold `tool`' },
    );
    const created = await slack.waitForResponse(
      (answer) => JSON.stringify(answer.body).includes('Created'),
      20_000,
    );
    expect(JSON.stringify(created.body)).toContain('tool');
    expect((await web.cli(['standing', 'list', '--json'])).stdout).not.toContain('"tool"');

    // A permission request of the owner's session, answered by a click that reaches `web`.
    const threadTs = String(
      (
        await slack.waitForCall(
          'chat.postMessage',
          (call) =>
            call.args['thread_ts'] === undefined && String(call.args['text']).includes('`tool`'),
          15_000,
        )
      ).response?.['ts'],
    );
    const said = await owner.cli(['standing', 'say', 'tool', '-'], {
      input: 'ship it\nFAKE:tool Bash ./ship.sh',
    });
    expect(said.exitCode, said.stderr).toBe(0);
    const request: WebApiCall = await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === threadTs &&
        String(call.args['text']).startsWith('🔐 Permission request'),
      30_000,
    );
    const blocks = request.args['blocks'];
    const parsed = (typeof blocks === 'string' ? JSON.parse(blocks) : blocks) as {
      type: string;
      elements?: { value: string }[];
    }[];
    const id = parsed.find((block) => block.type === 'actions')?.elements?.[0]?.value ?? '';
    const click = slack.blockActionsHttpBody({
      user: dana,
      channel,
      messageTs: String(request.response?.['ts']),
      threadTs,
      actionId: 'permission_allow',
      value: id,
    });
    expect(await post(click)).toBe(200);
    await slack.waitForCall(
      'chat.update',
      (update) =>
        update.args['ts'] === request.response?.['ts'] &&
        /allowed by @dana/.test(String(update.args['text'])),
      20_000,
    );
    const routed = (await loggedEvents(web, 'fleet.routed')).map((entry) => [
      entry['kind'],
      entry['to'],
    ]);
    expect(routed).toEqual(
      expect.arrayContaining([
        ['slash', 'owner'],
        ['action', 'owner'],
      ]),
    );
  });
});
