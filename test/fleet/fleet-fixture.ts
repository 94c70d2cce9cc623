import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { agentPrompts, untagged } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import type { NatsServer } from './nats-server.js';

const channel = 'C0OPS';
const dana = 'U0DANA';

/** The messages people sent that reached the fixture's agents (the boot prompt left out). */
export async function peoplePrompts(fixture: ServeFixture): Promise<string[]> {
  return (await agentPrompts(fixture.agentHome))
    .map(untagged)
    .filter((prompt) => !prompt.startsWith('[the-loop]'));
}

export async function loggedEvents(fixture: ServeFixture, name: string) {
  const text = await readFile(path.join(fixture.stateRoot, 'events.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.includes(`"${name}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A serve of the fleet on `nats`, with Slack in Socket Mode on the one fake app. */
export async function fleetServe(
  name: string,
  nats: NatsServer,
  slack: FakeSlack,
  env: Record<string, string> = {},
): Promise<ServeFixture> {
  return createServeFixture(
    () => ({
      instance: { name, scope: { mode: 'open' } },
      slack: { enabled: true, mode: 'socket', channel, authorizedUsers: [dana] },
      fleet: { nats: nats.url, retention: '1h' },
    }),
    {
      env: {
        SLACK_BOT_TOKEN: slack.identity.botToken,
        SLACK_APP_TOKEN: slack.identity.appToken,
        SLACK_API_URL: slack.apiUrl,
        ...env,
      },
    },
  );
}

/** Creates standing session `name` on `owner`, waits for its announcement, returns its thread ts. */
export async function createAnnouncedOn(
  owner: ServeFixture,
  slack: FakeSlack,
  name = 'sup',
): Promise<string> {
  const created = await owner.cli(['standing', 'create', name, '--slack-channel', channel]);
  expect(created.exitCode, created.stderr).toBe(0);
  await eventually(async () => (await loggedEvents(owner, 'standing.announced')).length > 0, {
    timeoutMs: 15_000,
    what: 'the announcement',
  });
  const announcement = slack
    .callsTo('chat.postMessage')
    .find((call) => call.args['thread_ts'] === undefined);
  return String(announcement?.response?.['ts']);
}
