import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testHoldEnv } from '../../src/test-hold.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { eventually } from '../helpers/eventually.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { startRealClaude, userTexts, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();
const channel = 'C0OPS';
const dana = 'U0DANA';

/**
 * Exactly once across a crash (docs/architecture.md) with the real Claude Code: serve is killed
 * after a Slack reply's Enter and before its inbox entry is recorded done (the test-only
 * THE_LOOP_TEST_HOLD seam holds it there). The restarted serve looks at the real input box — empty,
 * same process — and lets the entry go instead of typing the reply a second time.
 */
describe.skipIf(unavailable !== undefined)('the real Claude Code and a crash at the Enter', () => {
  let slack: FakeSlack;
  let claude: RealClaude;
  const marker = path.join(tmpdir(), `loop-hold-${randomUUID()}`);
  let threadTs = '';

  beforeAll(async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    claude = await startRealClaude({
      config: { slack: { enabled: true, channel, authorizedUsers: [dana] } },
      env: {
        SLACK_BOT_TOKEN: slack.identity.botToken,
        SLACK_APP_TOKEN: slack.identity.appToken,
        SLACK_API_URL: slack.apiUrl,
        [testHoldEnv]: `after-enter:${marker}`,
      },
    });
    await slack.socket.connected(15_000);
    const created = await claude.serve.cli([
      'standing',
      'create',
      'sup',
      '--slack-channel',
      channel,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['channel'] === channel && call.args['thread_ts'] === undefined,
      15_000,
    );
    threadTs = String(announcement.response?.['ts']);
    await waitForTurns(claude.serve, 'standing:sup', 1);
  });

  afterAll(async () => {
    await claude?.dispose();
    await slack?.stop();
    await rm(marker, { force: true });
  });

  it('a reply whose Enter went in before serve died reaches the model once', async () => {
    const reply = (text: string) =>
      slack.socket.send(
        slack.eventsApiEnvelope(slack.messageEvent({ channel, user: dana, text, threadTs })),
      );

    await reply('deploy the staging branch once');
    await eventually(async () => (await stat(marker).catch(() => undefined)) !== undefined, {
      what: 'the reply to be held after its Enter',
    });
    await claude.requestWith('deploy the staging branch once');
    await waitForTurns(claude.serve, 'standing:sup', 2);
    await claude.serve.kill('SIGKILL');
    await claude.serve.start();
    await slack.socket.connected(15_000);

    // Behind the recovered entry in the thread's lane: its request carries the whole history.
    await reply('then report back');
    const last = await claude.requestWith('then report back');
    const sent = userTexts(last).filter((text) => text.includes('deploy the staging branch once'));
    expect(sent).toHaveLength(1);
  });
});
