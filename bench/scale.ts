import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { StandingView } from '../src/standing/standing-types.js';
import { startFakeSlack } from '../test/fakes/fake-slack/start-fake-slack.js';
import { createCleanupStack, type CleanupStack } from './cleanup-stack.js';
import { createSessions } from './create-sessions.js';
import { percentile } from './percentile.js';
import { startPrivateTmux } from './private-tmux.js';
import { oldBindings, seedBindings } from './seed-bindings.js';
import { startServe } from './start-serve.js';
import { waitUntil } from './wait-until.js';

export interface ScaleResult {
  readonly sessions: number;
  readonly bindings: number;
  /** Spawn → health answering, with the bindings on disk and Slack on. */
  readonly startupMs: number;
  /** The same start-up with no bindings on disk, in the same run: what the bindings cost. */
  readonly startupEmptyMs: number;
  readonly idleRssMb: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
  /** `GET /api/v1/standing-sessions` alone, p50 ms. */
  readonly listApiMs: number;
  /** `the-loop standing list --json` as a process, p50 ms. */
  readonly listCliMs: number;
  /** `the-loop --help` as a process, p50 ms: what any CLI call costs before it talks to serve. */
  readonly cliFloorMs: number;
}

const channel = 'C0SCALE';

/**
 * A `serve` holding many sessions and bindings: `sessions` standing sessions of a cheap command
 * (`sleep`), created and started through the API and announced in Slack (so the bindings index is
 * loaded, with `bindings` old bindings seeded on disk before start). Measures start-up, memory,
 * and how long listing all sessions takes.
 */
export async function measureScale(options: {
  readonly sessions: number;
  readonly bindings: number;
  readonly listIterations: number;
  readonly cleanup: CleanupStack;
}): Promise<ScaleResult> {
  const { cleanup } = options;
  const slack = await startFakeSlack({ users: {} });
  cleanup.defer('stop the fake Slack', () => slack.stop());
  const tmux = await startPrivateTmux('scale', cleanup);
  const serveOptions = {
    tmuxSocket: tmux.socket,
    config: () => ({
      harnesses: { sleeper: { kind: 'command', command: 'sleep', args: ['100000'] } },
      defaults: { harness: 'sleeper', cwd: '.' },
      standing: { autoStart: false, allowedRoots: ['.'], sessions: [] },
      slack: { enabled: true, mode: 'socket', channel, authorizedUsers: [] },
    }),
    env: {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_APP_TOKEN: slack.identity.appToken,
      SLACK_API_URL: slack.apiUrl,
    },
  };
  // First the same serve with no bindings at all, started and stopped on its own, as the base
  // the start-up with bindings is judged against.
  const emptyCleanup = createCleanupStack();
  // Should the scenario fail first, the main stack stops it too (a stack runs each task once).
  cleanup.defer('stop the empty serve', () => emptyCleanup.run());
  const empty = await startServe({ ...serveOptions, label: 'scale-empty', cleanup: emptyCleanup });
  const startupEmptyMs = empty.startupMs;
  await slack.socket.connected(15_000);
  const failures = await emptyCleanup.run();
  if (failures.length > 0)
    throw new Error(`bench: stopping the empty serve: ${failures.join('; ')}`);
  // So that `connected` below waits for the serve with the bindings.
  await slack.socket.disconnected(15_000);
  const serve = await startServe({
    ...serveOptions,
    label: 'scale',
    cleanup,
    prepare: (stateRoot) => seedBindings(stateRoot, oldBindings(options.bindings, channel)),
  });
  await slack.socket.connected(15_000);
  const idle = await serve.memory();

  const names = Array.from({ length: options.sessions }, (_, index) => `scale-${index}`);
  await createSessions(serve.api, names, { slackChannel: channel, start: true }, 8);
  const threadsDir = path.join(serve.stateRoot, 'slack', 'threads');
  await waitUntil(
    async () =>
      (await readdir(threadsDir)).filter((name) => name.endsWith('.json')).length >=
      options.bindings + names.length,
    { what: `${names.length} sessions announced`, timeoutMs: 120_000, intervalMs: 100 },
  );

  const listed = async (): Promise<number> => {
    const begun = performance.now();
    const answer = await serve.api.request<{ sessions: StandingView[] }>(
      'GET',
      '/api/v1/standing-sessions',
    );
    const ms = performance.now() - begun;
    const running = answer.body.sessions.filter((session) => session.status === 'running');
    if (running.length !== names.length) {
      throw new Error(`bench: ${running.length} of ${names.length} sessions listed as running`);
    }
    return ms;
  };
  await listed();
  const apiSamples: number[] = [];
  // Many short calls (~6 ms each): their p50 then spans long enough that one stall of a shared
  // machine does not decide it.
  for (let index = 0; index < options.listIterations; index += 1) apiSamples.push(await listed());
  const cliSamples: number[] = [];
  const floorSamples: number[] = [];
  // A process each (~0.3 s), and no target: five are enough to show what the CLI adds.
  for (let index = 0; index < Math.min(5, options.listIterations); index += 1) {
    const list = await serve.cli(['standing', 'list', '--json']);
    const sessions = JSON.parse(list.stdout) as unknown[];
    if (list.exitCode !== 0 || sessions.length !== names.length) {
      throw new Error(
        `bench: standing list --json exited ${list.exitCode} with ${sessions.length} sessions`,
      );
    }
    cliSamples.push(list.ms);
    floorSamples.push((await serve.cli(['--help'])).ms);
  }
  const memory = await serve.memory();
  return {
    sessions: names.length,
    bindings: options.bindings,
    startupMs: serve.startupMs,
    startupEmptyMs,
    idleRssMb: idle.rssMb,
    rssMb: memory.rssMb,
    peakRssMb: memory.peakMb,
    listApiMs: percentile(apiSamples, 50),
    listCliMs: percentile(cliSamples, 50),
    cliFloorMs: percentile(floorSamples, 50),
  };
}
