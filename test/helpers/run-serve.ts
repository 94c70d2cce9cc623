import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { stringify } from 'yaml';
import { createApiClient } from '../../src/api/create-api-client.js';
import { eventually } from './eventually.js';
import { fakeAgentPath } from './spawn-fake-agent.js';

export const binPath = path.resolve('bin/the-loop');

/**
 * The `fake` harness of the fixture's config (a claude-kind harness running the fake agent), with
 * the fake agent's knobs (`FAKE_AGENT_TURN_MS`, …) set for its sessions.
 */
export function fakeAgentHarness(
  agentHome: string,
  knobs: Record<string, string> = {},
): Record<string, unknown> {
  return {
    fake: {
      kind: 'claude',
      command: 'env',
      args: [
        `FAKE_AGENT_HOME=${agentHome}`,
        ...Object.entries(knobs).map(([name, value]) => `${name}=${value}`),
        process.execPath,
        fakeAgentPath,
      ],
    },
  };
}

/** Extra config for a fixture whose sessions run a plain `sh` (the `shell` harness). */
export const shellHarness = () => ({
  harnesses: { shell: { kind: 'command', command: 'sh' } },
  defaults: { harness: 'shell', cwd: 'work' },
});

/** The names of the sessions on the fixture's tmux server; none when it is not running. */
export async function tmuxSessions(serve: Pick<ServeFixture, 'socket'>): Promise<string[]> {
  const listed = await execa('tmux', ['-L', serve.socket, 'list-sessions', '-F', '#S'], {
    reject: false,
  });
  return listed.exitCode === 0 ? listed.stdout.split('\n') : [];
}

export interface CliResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A real `the-loop serve` in a child process, on a config of the test's own: a temporary state
 * root, a private tmux socket, and a `fake` harness of kind claude that runs the fake agent.
 */
export interface ServeFixture {
  readonly dir: string;
  readonly configPath: string;
  readonly socket: string;
  readonly agentHome: string;
  readonly stateRoot: string;
  start(): Promise<void>;
  /** SIGKILL (a crash), SIGTERM or SIGINT (a clean stop); resolves with the exit code. */
  kill(signal: 'SIGKILL' | 'SIGTERM' | 'SIGINT'): Promise<number | undefined>;
  /** Sends a signal that should not end serve (SIGHUP: reload the config). */
  signal(signal: 'SIGHUP'): void;
  cli(
    args: readonly string[],
    options?: { input?: string; env?: Record<string, string> },
  ): Promise<CliResult>;
  output(): string;
  dispose(): Promise<void>;
}

export async function createServeFixture(
  extraConfig: (paths: { dir: string; agentHome: string }) => Record<string, unknown> = () => ({}),
  options: { env?: Record<string, string> } = {},
): Promise<ServeFixture> {
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-e2e-'));
  const agentHome = path.join(dir, 'agent');
  const work = path.join(dir, 'work');
  await mkdir(agentHome, { recursive: true });
  await mkdir(work, { recursive: true });
  const socket = `loop-e2e-${randomBytes(4).toString('hex')}`;
  const config = {
    state: { root: 'state' },
    tmux: { socket },
    harnesses: fakeAgentHarness(agentHome),
    defaults: { harness: 'fake', cwd: 'work' },
    standing: { autoStart: true, allowedRoots: ['work'], sessions: [] },
    delivery: { readyTimeoutMs: 15_000, submitDelayMs: 20, confirmTimeoutMs: 3_000 },
    slack: { enabled: false },
    // Tests run many serves at once: only a test that asks for the dashboard gets one.
    dashboard: { listen: 'off' },
    ...extraConfig({ dir, agentHome }),
  };
  const configPath = path.join(dir, 'config.yaml');
  await writeFile(configPath, stringify(config));
  const stateRoot = path.join(dir, 'state');
  let serve: ResultPromise | undefined;
  let log = '';
  const env = {
    THE_LOOP_LOG_LEVEL: 'debug',
    SLACK_BOT_TOKEN: '',
    SLACK_APP_TOKEN: '',
    GITHUB_TOKEN: '',
    ...options.env,
  };

  const fixture: ServeFixture = {
    dir,
    configPath,
    socket,
    agentHome,
    stateRoot,
    async start() {
      const startsBefore = await countStarts(stateRoot);
      serve = execa(process.execPath, [binPath, 'serve', '--config', configPath], {
        env,
        reject: false,
        all: true,
      });
      serve.all?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      const client = createApiClient({
        socketPath: path.join(stateRoot, 'control.sock'),
        timeoutMs: 2_000,
      });
      await eventually(
        async () => {
          if (serve?.exitCode !== null && serve?.exitCode !== undefined) {
            throw new Error(`serve exited early:\n${log}`);
          }
          const health = await client.request('GET', '/api/v1/health').catch(() => undefined);
          return health?.status === 200;
        },
        { timeoutMs: 20_000, what: 'serve to answer on its socket' },
      );
      // The socket answers first (the CLI works while serve starts); its listeners come after.
      await eventually(async () => !((await countStarts(stateRoot)) <= startsBefore), {
        timeoutMs: 20_000,
        what: 'serve.started: every listener up',
      });
    },
    async kill(signal) {
      if (!serve) return undefined;
      serve.kill(signal);
      const result = await serve;
      serve = undefined;
      return result.exitCode;
    },
    async cli(args, options = {}) {
      const result = await execa(process.execPath, [binPath, ...args, '--config', configPath], {
        env: { ...env, ...options.env },
        input: options.input ?? '',
        reject: false,
      });
      return {
        exitCode: result.exitCode ?? -1,
        stdout: String(result.stdout),
        stderr: String(result.stderr),
      };
    },
    signal(signal) {
      if (!serve) throw new Error('serve is not running');
      serve.kill(signal);
    },
    output: () => log,
    async dispose() {
      await fixture.kill('SIGKILL');
      await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
    },
  };
  return fixture;
}

/**
 * Resolves once the session's agent has finished `turns` turns (its boot prompt is one) and is
 * idle, as the event log's `agent.state` lines say: a message typed into a running turn is only
 * `queued`, and these tests mean to talk to an idle agent.
 */
export async function waitForTurns(
  fixture: ServeFixture,
  ref: string,
  turns: number,
): Promise<void> {
  await eventually(
    async () => {
      const text = await readFile(path.join(fixture.stateRoot, 'events.jsonl'), 'utf8').catch(
        () => '',
      );
      const changes = text
        .split('\n')
        .filter((line) => line.includes('"agent.state"'))
        .map((line) => JSON.parse(line) as { ref?: string; from?: string; to?: string })
        .filter((change) => change.ref === ref);
      const ended = changes.filter((change) => change.from === 'busy' && change.to === 'idle');
      return ended.length >= turns && changes.at(-1)?.to === 'idle';
    },
    { timeoutMs: 20_000, what: `${ref} to finish ${turns} turn(s)` },
  );
}

/** How many times serve has recorded `serve.started` in this state root's event log. */
async function countStarts(stateRoot: string): Promise<number> {
  const file = path.join(stateRoot, 'events.jsonl');
  // A test may make the log a FIFO or a folder (fault tests): reading it would hang or fail.
  const kind = await lstat(file).catch(() => undefined);
  if (kind !== undefined && !kind.isFile()) return Number.NaN;
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.includes('"event":"serve.started"')).length;
}
