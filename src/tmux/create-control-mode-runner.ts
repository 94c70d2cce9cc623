import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { errnoCode } from '../state/errno-code.js';
import { controlModeLine } from './control-mode-line.js';
import { createControlModeParser } from './parse-control-mode.js';
import { parseTmuxVersion, supportsControlClient } from './parse-tmux-version.js';
import { tmuxClientArgs, type TmuxResult, type TmuxRunner } from './tmux-runner.js';

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
  /** Set once the call is at the head of the queue: tmux answers in order. */
  timer?: NodeJS.Timeout;
}

interface Client {
  readonly child: ChildProcess;
  readonly runs: Run[];
}

// Not server commands; arguments with their own escaping for argv; and capture-pane, whose
// output is whatever a program printed — a line in it could pass for the end of the block.
const throughFallback = new Set(['-V', 'new-session', 'capture-pane']);

/**
 * One long-lived `tmux -C` client instead of a process per command: a command costs a line on a
 * pipe rather than a fork and exec (DESIGN §10 measures the difference). Each call is followed by
 * a marker command; every block tmux prints before the marker's belongs to that call (an `if-shell`
 * prints one block for itself and one for the command it ran). A call in flight when the client
 * dies has an unknown outcome and is reported as such; the next call starts a new client.
 */
export function createControlModeRunner(options: ControlModeRunnerOptions): ClosableTmuxRunner {
  const base = tmuxClientArgs(options);
  const binary = options.binary ?? 'tmux';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const marker = `the-loop-control-${randomUUID()}`;
  const markerLine = `display-message -p '${marker}'`;
  let client: Client | undefined;
  let closed = false;
  let usable: Promise<boolean> | undefined;

  // Older servers get a process per command (see supportsControlClient).
  const controlModeUsable = (): Promise<boolean> => {
    usable ??= options.fallback.run(['-V']).then((result) => {
      if (result.exitCode !== 0) {
        usable = undefined;
        return false;
      }
      return supportsControlClient(parseTmuxVersion(result.stdout));
    });
    return usable;
  };

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

  const startTimer = (owner: Client): void => {
    const head = owner.runs[0];
    if (!head || head.timer) return;
    // The client's answers could no longer be matched to calls: start over.
    head.timer = setTimeout(() => {
      drop(owner, `tmux did not answer within ${timeoutMs} ms`);
    }, timeoutMs);
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
      [...base, '-C', 'new-session', '-A', '-s', options.sessionName, '--', 'sleep', '2147483647'],
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
        if (event?.type === 'session-changed' && event.name !== options.sessionName) {
          // Its session was killed and `detach-on-destroy off` moved it into another one — maybe
          // an agent's, whose output it would then receive. Leave; the next call starts over.
          drop(started, `the tmux control client was moved to session ${event.name}`);
          return;
        }
        if (event?.type !== 'block') continue;
        const run = started.runs[0];
        if (!run) continue;
        if (event.ok && event.lines.length === 1 && event.lines[0] === marker) {
          started.runs.shift();
          run.resolve(finish(run));
          startTimer(started);
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
      current.runs.push({ ok: [], stdout: [], stderr: [], resolve });
      startTimer(current);
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
    const file = path.join(options.scratchDir, `buffer-${randomUUID()}`);
    // Removed in `finally` even when the write itself fails (a full disk leaves a part behind).
    try {
      // The folder is made on first use and again if someone removed it.
      await writeFile(file, input, { mode: 0o600 }).catch(async (error: unknown) => {
        if (errnoCode(error) !== 'ENOENT') throw error;
        await ensurePrivateDir(options.scratchDir);
        await writeFile(file, input, { mode: 0o600 });
      });
      const line = controlModeLine(args.map((arg, index) => (index === dash ? file : arg)));
      return line === undefined || closed ? undefined : await send(line);
    } finally {
      await unlink(file).catch(() => undefined);
    }
  };

  return {
    async run(args, input) {
      if (closed || throughFallback.has(args[0] ?? '') || !(await controlModeUsable())) {
        return options.fallback.run(args, input);
      }
      if (input !== undefined) {
        return (await withInputFile(args, input)) ?? options.fallback.run(args, input);
      }
      const line = controlModeLine(args);
      // Checked again: close() may have begun while the version was asked.
      return line === undefined || closed ? options.fallback.run(args, input) : send(line);
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
