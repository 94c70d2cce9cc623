import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startFakeSlack } from '../test/fakes/fake-slack/start-fake-slack.js';
import type { CleanupStack } from './cleanup-stack.js';
import { createSessions } from './create-sessions.js';
import { fakeAgentHarness, waitForAgentsReady } from './fake-agent-harness.js';
import { startPrivateTmux } from './private-tmux.js';
import { readBindings } from './read-bindings.js';
import { startServe } from './start-serve.js';
import { waitUntil } from './wait-until.js';

/**
 * What the Slack-driven scenarios (burst, soak) stand on: a fake Slack, a serve on a private tmux
 * server taking Socket Mode from it, and `sessions` fake-agent sessions named `<label>-<n>`, each
 * announced in `channel` (its thread bound) and ready for input.
 */
export async function startSlackSessions(options: {
  readonly label: string;
  readonly sessions: number;
  readonly channel: string;
  readonly user: string;
  readonly cleanup: CleanupStack;
}) {
  const { label, channel, user, cleanup } = options;
  const slack = await startFakeSlack({ users: { [user]: { name: label } } });
  cleanup.defer('stop the fake Slack', () => slack.stop());
  const tmux = await startPrivateTmux(label, cleanup);
  const serve = await startServe({
    label,
    cleanup,
    tmuxSocket: tmux.socket,
    config: (dir) => ({
      harnesses: { fake: fakeAgentHarness(path.join(dir, 'agent')) },
      defaults: { harness: 'fake', cwd: '.' },
      standing: { autoStart: false, allowedRoots: ['.'], sessions: [] },
      slack: { enabled: true, mode: 'socket', channel, authorizedUsers: [user] },
    }),
    env: {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_APP_TOKEN: slack.identity.appToken,
      SLACK_API_URL: slack.apiUrl,
    },
  });
  const home = path.join(serve.dir, 'agent');
  await mkdir(home, { recursive: true });
  await slack.socket.connected(15_000);
  const names = Array.from({ length: options.sessions }, (_, index) => `${label}-${index}`);
  await createSessions(
    serve.api,
    names,
    { harness: 'fake', slackChannel: channel, start: true },
    4,
  );
  const bindings = await waitUntil(
    async () => {
      const found = await readBindings(serve.stateRoot);
      return found.size >= names.length && found;
    },
    { what: `${names.length} sessions announced in Slack`, timeoutMs: 60_000, intervalMs: 100 },
  );
  await waitForAgentsReady(home, names.length, 60_000);
  return { slack, tmux, serve, home, names, bindings };
}
