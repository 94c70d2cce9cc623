import { expect } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { startRealClaude, type RealClaude } from './start-real-claude.js';

export const channel = 'C0OPS';
export const dana = 'U0DANA';

export interface RealClaudeInSlack {
  readonly slack: FakeSlack;
  readonly claude: RealClaude;
  /** The thread the session was announced in (bound to it). */
  readonly threadTs: string;
  /** A reply from dana in that thread, through Socket Mode. */
  reply(text: string): Promise<unknown>;
}

/**
 * The real Claude Code as a standing session `name` behind a fake Slack: serve in Socket Mode,
 * dana authorized, the session announced in #ops and its boot turn over.
 */
export async function startRealClaudeInSlack(options: {
  readonly name: string;
  /** More of the `slack` config block (e.g. `progress`). */
  readonly slack?: Record<string, unknown>;
  /** More of serve's environment. */
  readonly env?: Record<string, string>;
}): Promise<RealClaudeInSlack> {
  const slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
  const claude = await startRealClaude({
    config: { slack: { enabled: true, channel, authorizedUsers: [dana], ...options.slack } },
    env: {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_APP_TOKEN: slack.identity.appToken,
      SLACK_API_URL: slack.apiUrl,
      ...options.env,
    },
  }).catch(async (error: unknown) => {
    await slack.stop();
    throw error;
  });
  await slack.socket.connected(15_000);
  const created = await claude.serve.cli([
    'standing',
    'create',
    options.name,
    '--slack-channel',
    channel,
  ]);
  expect(created.exitCode, created.stderr).toBe(0);
  const announcement = await slack.waitForCall(
    'chat.postMessage',
    (call) => call.args['channel'] === channel && call.args['thread_ts'] === undefined,
    15_000,
  );
  const threadTs = String(announcement.response?.['ts']);
  await waitForTurns(claude.serve, `standing:${options.name}`, 1);
  return {
    slack,
    claude,
    threadTs,
    reply: (text) =>
      slack.socket.send(
        slack.eventsApiEnvelope(slack.messageEvent({ channel, user: dana, text, threadTs })),
      ),
  };
}
