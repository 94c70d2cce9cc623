import { access } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../../helpers/run-serve.js';
import type { FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';

export const slackChannel = 'C0OPS';
export const slackOperator = 'U0DANA';
export const signingSecret = 'signing-secret-for-fault-tests';

type ExtraConfig = (paths: { dir: string; agentHome: string }) => Record<string, unknown>;

/**
 * A serve fixture with Slack on against the fake Slack (Socket Mode unless `mode` says http):
 * `dana` is the one authorized user, `#ops` the default channel. Started, and in Socket Mode
 * connected, when it resolves.
 */
export async function startSlackServe(
  slack: FakeSlack,
  options: {
    readonly mode?: 'socket' | 'http';
    readonly port?: number;
    readonly extra?: ExtraConfig;
    readonly env?: Record<string, string>;
  } = {},
): Promise<ServeFixture> {
  const mode = options.mode ?? 'socket';
  const fixture = await createServeFixture(
    (paths) => ({
      slack: { enabled: true, mode, channel: slackChannel, authorizedUsers: [slackOperator] },
      http: { host: '127.0.0.1', port: options.port ?? 0 },
      ...options.extra?.(paths),
    }),
    {
      env: {
        SLACK_BOT_TOKEN: slack.identity.botToken,
        SLACK_APP_TOKEN: slack.identity.appToken,
        SLACK_SIGNING_SECRET: signingSecret,
        SLACK_API_URL: slack.apiUrl,
        ...options.env,
      },
    },
  );
  await fixture.start();
  if (mode === 'socket') await slack.socket.connected(15_000);
  return fixture;
}

/**
 * Creates a standing session announced in #ops; resolves with its thread's ts once the binding is
 * on disk. The fake answers `chat.postMessage` before serve writes the binding, so a test that
 * crashes serve right after the announcement would otherwise race that write.
 */
export async function createAnnounced(
  fixture: ServeFixture,
  slack: FakeSlack,
  name: string,
): Promise<string> {
  const created = await fixture.cli(['standing', 'create', name, '--slack-channel', slackChannel]);
  expect(created.exitCode, created.stderr).toBe(0);
  const announcement = await slack.waitForCall(
    'chat.postMessage',
    (call) =>
      call.args['channel'] === slackChannel &&
      call.args['thread_ts'] === undefined &&
      String(call.args['text']).includes(`\`${name}\``) &&
      call.response !== undefined,
    15_000,
  );
  const threadTs = String(announcement.response?.['ts']);
  const binding = path.join(
    fixture.stateRoot,
    'slack',
    'threads',
    `${slackChannel.toLowerCase()}-${threadTs}.json`,
  );
  await eventually(
    () =>
      access(binding).then(
        () => true,
        () => undefined,
      ),
    { timeoutMs: 10_000, what: `the binding of ${name}'s thread to be written` },
  );
  return threadTs;
}

/** A thread reply by `dana` sent down the Socket Mode connection; resolves with its ack. */
export function sendReply(
  slack: FakeSlack,
  threadTs: string,
  text: string,
  options: { readonly eventId?: string; readonly timeoutMs?: number } = {},
) {
  return slack.socket.send(
    slack.eventsApiEnvelope(
      slack.messageEvent({ channel: slackChannel, user: slackOperator, text, threadTs }),
      options.eventId ? { eventId: options.eventId } : {},
    ),
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
}
