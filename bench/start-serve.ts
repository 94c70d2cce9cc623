import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { stringify } from 'yaml';
import { createApiClient, type ApiClient } from '../src/api/create-api-client.js';
import type { CleanupStack } from './cleanup-stack.js';
import { parseVmStatus, type VmFigures } from './parse-vm-status.js';
import { repoPath } from './repo-path.js';
import { waitUntil } from './wait-until.js';

export const binPath = repoPath('bin', 'the-loop');

export interface BenchServe {
  readonly dir: string;
  readonly stateRoot: string;
  readonly configPath: string;
  readonly logPath: string;
  readonly pid: number;
  /** From spawning `serve` until its health endpoint answers 200. */
  readonly startupMs: number;
  readonly api: ApiClient;
  /** Runs the CLI against this serve; `ms` is the wall time of the whole process. */
  cli(args: readonly string[]): Promise<{ exitCode: number; stdout: string; ms: number }>;
  memory(): Promise<VmFigures>;
  /** Lines of serve's JSON log, parsed. */
  logRecords(): Promise<Array<Record<string, unknown>>>;
}

export interface StartServeOptions {
  readonly label: string;
  readonly cleanup: CleanupStack;
  readonly tmuxSocket: string;
  /** Config keys besides `state` and `tmux`, given the run's folder. */
  readonly config: (dir: string) => Record<string, unknown>;
  readonly env?: Readonly<Record<string, string>>;
  /** Runs before `serve` starts, with the state root (created, 0700) — to seed records. */
  readonly prepare?: (stateRoot: string) => Promise<void>;
}

/**
 * A real `the-loop serve` (the built `bin/the-loop`) in a child process, on a config and state root
 * of its own in a temporary folder, logging to a file there so the bench spends nothing reading
 * it. Stopped (SIGTERM, then SIGKILL) and its folder removed by the cleanup stack.
 */
export async function startServe(options: StartServeOptions): Promise<BenchServe> {
  const { cleanup } = options;
  const dir = await mkdtemp(path.join(tmpdir(), `loop-bench-${options.label}-`));
  cleanup.defer(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const stateRoot = path.join(dir, 'state');
  await mkdir(stateRoot, { mode: 0o700 });
  const configPath = path.join(dir, 'config.yaml');
  await writeFile(
    configPath,
    stringify({
      state: { root: stateRoot },
      tmux: { socket: options.tmuxSocket },
      ...options.config(dir),
    }),
  );
  await options.prepare?.(stateRoot);

  const env = {
    ...process.env,
    // Nothing from the caller's environment may switch a surface on or point it elsewhere.
    SLACK_BOT_TOKEN: '',
    SLACK_APP_TOKEN: '',
    SLACK_SIGNING_SECRET: '',
    SLACK_API_URL: '',
    GITHUB_TOKEN: '',
    GITHUB_WEBHOOK_SECRET: '',
    GITHUB_API_URL: '',
    THE_LOOP_CONFIG: '',
    THE_LOOP_LOG_LEVEL: 'info',
    ...options.env,
  };
  const logPath = path.join(dir, 'serve.log');
  const log = await open(logPath, 'a');
  const api = createApiClient({
    socketPath: path.join(stateRoot, 'control.sock'),
    timeoutMs: 60_000,
  });
  const started = performance.now();
  // BENCH_SERVE_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles serve itself.
  const nodeArgs = (process.env['BENCH_SERVE_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  // Without them, bin/the-loop runs as an installed command does, through its shebang and the
  // V8 flags there.
  const [command, args] =
    nodeArgs.length > 0 ? [process.execPath, [...nodeArgs, binPath]] : [binPath, []];
  const child = spawn(command, [...args, 'serve', '--config', configPath], {
    env,
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  cleanup.defer(`stop serve (${options.label})`, () => stopChild(child));
  const exited = once(child, 'exit');
  await waitUntil(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        await exited;
        throw new Error(`bench: serve (${options.label}) exited early:\n${await tail(logPath)}`);
      }
      const health = await api.request('GET', '/api/v1/health').catch(() => undefined);
      return health?.status === 200;
    },
    { what: `serve (${options.label}) to answer on its socket`, timeoutMs: 30_000, intervalMs: 5 },
  );
  const startupMs = performance.now() - started;
  const pid = child.pid ?? 0;

  return {
    dir,
    stateRoot,
    configPath,
    logPath,
    pid,
    startupMs,
    api,
    async cli(args) {
      const begun = performance.now();
      const result = await execa(process.execPath, [binPath, ...args, '--config', configPath], {
        env,
        reject: false,
      });
      return {
        exitCode: result.exitCode ?? -1,
        stdout: String(result.stdout),
        ms: performance.now() - begun,
      };
    },
    async memory() {
      return parseVmStatus(await readFile(`/proc/${pid}/status`, 'utf8'));
    },
    async logRecords() {
      const text = await readFile(logPath, 'utf8');
      return text.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
    },
  };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

async function tail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-20).join('\n');
}
