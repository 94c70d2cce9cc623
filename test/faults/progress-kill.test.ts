import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { restartedStatusText } from '../../src/slack/progress/create-open-status-messages.js';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { createAnnounced, slackOperator, startSlackServe } from './support/slack-serve.js';

/**
 * Issue 21.8: serve killed while a turn's status message is open. Before, the message kept its
 * `⏳ working …` for good; now the restarted serve says the turn was not followed to the end.
 */
describe('serve killed during a progress edit', () => {
  let slack: FakeSlack | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
  });

  it('the restarted serve closes the status message the killed one left open', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fake = slack;
    fixture = await startSlackServe(fake);
    const serve = fixture;
    const threadTs = await createAnnounced(serve, fake, 'agent');
    const { sessionToken } = JSON.parse(
      await readFile(path.join(serve.stateRoot, 'standing', 'agent.json'), 'utf8'),
    ) as { sessionToken: string };
    const client = createApiClient({ socketPath: path.join(serve.stateRoot, 'control.sock') });
    const hook = await client.request(
      'POST',
      '/api/v1/hooks/PreToolUse',
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } },
      { 'X-The-Loop-Session-Token': sessionToken },
    );
    expect(hook.status).toBeLessThan(300);
    const status = await fake.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === threadTs && String(call.args['text']).includes('npm test'),
      15_000,
    );
    const ts = String(status.response?.['ts']);
    // The record is written just after Slack answers; an atomic write's temp file (`.…tmp`) is
    // not the record yet, and a kill before its rename leaves nothing to close.
    const records = path.join(serve.stateRoot, 'slack', 'progress');
    const written = async () =>
      (await readdir(records).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));
    await eventually(async () => (await written()).length === 1, {
      timeoutMs: 10_000,
      what: 'the open status message to be recorded',
    });
    await serve.kill('SIGKILL');
    await serve.start();
    await fake.socket.connected(15_000);
    const closed = await fake.waitForCall(
      'chat.update',
      (call) => call.args['ts'] === ts && call.args['text'] === restartedStatusText,
      30_000,
    );
    expect(closed.args['channel']).toBe(status.args['channel']);
  }, 90_000);
});
