import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { controlModeLine } from './control-mode-line.js';
import { createControlModeParser } from './parse-control-mode.js';
import type { TmuxResult, TmuxRunner } from './tmux-runner.js';

export interface ControlModeRunnerOptions {
  /** "" = the user's default server; otherwise `tmux -L <socket>`. */
  readonly socket: string;
  readonly configFile?: string;
  readonly binary?: string;
  /** The whole environment the client (and a server it starts) runs with; see tmuxEnvironment. */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /**
   * The session the client attaches to, created when missing. A control client must be attached
   * somewhere, and attaching to an agent's session could resize it; this one runs only `sleep`.
   */
  readonly sessionName: string;
  /** A private folder for texts that `load-buffer` reads from a file instead of stdin. */
  readonly scratchDir: string;
  /** Runs what one line cannot carry: `tmux -V`, new sessions, arguments with line breaks. */
  readonly fallback: TmuxRunner;
  readonly logger: Logger;
}

export interface ClosableTmuxRunner extends TmuxRunner {
  /** Ends the client and its session; agent sessions are left alone. */
  close(): Promise<void>;
}

interface Run {
  readonly ok: boolean[];
  readonly stdout: string[];
  readonly stderr: string[];
  readonly resolve: (result: TmuxResult) => void;
  readonly timer: NodeJS.Timeout;
}

interface Client {
  readonly child: ChildProcess;
  readonly runs: Run[];
}

// Commands that are not server commands, or whose arguments carry their own escaping for argv.
const throughFallback = new Set(['-V', 'new-session']);

/**
 * One long-lived `tmux -C` client instead of a process per command: a command costs a line on a
 * pipe rather than a fork and exec (DESIGN §10 measures the difference). Each call is followed by
 * a marker command; every block tmux prints before the marker's belongs to that call (an `if-shell`
 * prints one block for itself and one for the command it ran). A call in flight when the client
 * dies has an unknown outcome and is reported as such; the next call starts a new client.
 */
export function createControlModeRunner(options: ControlModeRunnerOptions): ClosableTmuxRunner {
  const base = [
    ...(options.socket ? ['-L', options.socket] : []),
    ...(options.configFile ? ['-f', options.configFile] : []),
  ];
  const binary = options.binary ?? 'tmux';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const marker = `the-loop-control-${randomUUID()}`;
  const markerLine = `display-message -p '${marker}'`;
  let client: Client | undefined;
  let scratchReady: Promise<unknown> | undefined;
  let closed = false;

  const unknownOutcome = (why: string): TmuxResult => ({
    exitCode: -1,
    stdout: '',
    stderr: why,
    failedToRun: true,
  });

  const finish = (run: Run): TmuxResult => {
    clearTimeout(run.timer);
    const failed = run.ok.includes(false);
    return {
      exitCode: failed ? 1 : 0,
      stdout: run.stdout.map((line) => `${line}\n`).join(''),
      stderr: run.stderr.map((line) => `${line}\n`).join(''),
      failedToRun: false,
    };
  };

  const drop = (gone: Client, why: string): void => {
    if (client === gone) client = undefined;
    for (const run of gone.runs.splice(0)) {
      clearTimeout(run.timer);
      run.resolve(unknownOutcome(why));
    }
    if (gone.child.exitCode === null && gone.child.signalCode === null) gone.child.kill('SIGKILL');
  };

  const connect = (): Client => {
    const child = spawn(
      binary,
      // -u: UTF-8 whatever the locale says, or tmux prints `_` for every non-ASCII character.
      [
        ...base,
        '-u',
        '-C',
        'new-session',
        '-A',
        '-s',
        options.sessionName,
        '--',
        'sleep',
        '2147483647',
      ],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(options.env ? { env: options.env } : {}),
      },
    );
    const started: Client = { child, runs: [] };
    const parser = createControlModeParser();
    const decoder = new StringDecoder('utf8');
    let partial = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const event = parser.line(line);
        if (event?.type !== 'block') continue;
        const run = started.runs[0];
        if (!run) continue;
        if (event.ok && event.lines.length === 1 && event.lines[0] === marker) {
          started.runs.shift();
          run.resolve(finish(run));
          continue;
        }
        run.ok.push(event.ok);
        (event.ok ? run.stdout : run.stderr).push(...event.lines);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => drop(started, `tmux control client failed: ${error.message}`));
    child.on('close', (code, signal) => {
      const why = stderr.trim() || `exit ${code ?? signal ?? 'unknown'}`;
      if (client === started && !closed) {
        options.logger.debug(
          { event: 'tmux.control_exited', reason: why },
          'tmux control client exited',
        );
      }
      drop(started, `the tmux control client exited (${why})`);
    });
    return started;
  };

  const send = (line: string): Promise<TmuxResult> => {
    client ??= connect();
    const current = client;
    return new Promise<TmuxResult>((resolve) => {
      const timer = setTimeout(() => {
        // The client's answers can no longer be matched to calls: start over.
        drop(current, `tmux did not answer within ${timeoutMs} ms`);
      }, timeoutMs);
      current.runs.push({ ok: [], stdout: [], stderr: [], resolve, timer });
      current.child.stdin?.write(`${line}\n${markerLine}\n`);
    });
  };

  /** `load-buffer … -` reads stdin, which a control client does not have: use a private file. */
  const withInputFile = async (
    args: readonly string[],
    input: string,
  ): Promise<TmuxResult | undefined> => {
    const load = args.indexOf('load-buffer');
    const end = args.indexOf(';', load);
    const dash = args.indexOf('-', load);
    if (load === -1 || dash === -1 || (end !== -1 && dash > end)) return undefined;
    scratchReady ??= ensurePrivateDir(options.scratchDir);
    await scratchReady;
    const file = path.join(options.scratchDir, `buffer-${randomUUID()}`);
    await writeFile(file, input, { mode: 0o600 });
    try {
      const line = controlModeLine(args.map((arg, index) => (index === dash ? file : arg)));
      return line === undefined ? undefined : await send(line);
    } finally {
      await unlink(file).catch(() => undefined);
    }
  };

  return {
    async run(args, input) {
      if (closed || throughFallback.has(args[0] ?? '')) return options.fallback.run(args, input);
      if (input !== undefined) {
        return (await withInputFile(args, input)) ?? options.fallback.run(args, input);
      }
      const line = controlModeLine(args);
      return line === undefined ? options.fallback.run(args, input) : send(line);
    },

    async close() {
      closed = true;
      const current = client;
      if (!current) return;
      const exited = new Promise<void>((resolve) => current.child.once('close', () => resolve()));
      current.child.stdin?.end(
        `${controlModeLine(['kill-session', '-t', `=${options.sessionName}`])}\n`,
      );
      const timer = setTimeout(() => drop(current, 'closing'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
