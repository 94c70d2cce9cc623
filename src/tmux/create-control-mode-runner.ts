import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { errnoCode } from '../errors.js';
import { classifyTmuxFailure } from './classify-tmux-failure.js';
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
   * A session of that name without our owner tag is someone else's: the client then makes a
   * fresh one, `<sessionName>-<random>`, and never attaches to or kills the other (docs/design.md §16).
   */
  readonly sessionName: string;
  /** This instance's id, written to the control session's `@the-loop-owner` like every session's. */
  readonly owner: string;
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
  /** The session it is attached to: ours, by tag. */
  readonly session: string;
}

// Not server commands; arguments with their own escaping for argv; and capture-pane, whose
// output is whatever a program printed — a line in it could pass for the end of the block.
const throughFallback = new Set(['-V', 'new-session', 'capture-pane']);

/**
 * One long-lived `tmux -C` client instead of a process per command: a command costs a line on a
 * pipe rather than a fork and exec (docs/design.md §10 measures the difference). Each call is followed by
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
  /** Set while a client is being started, so calls made meanwhile wait for that one. */
  let connecting: Promise<Client> | undefined;
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

  /**
   * Which session to attach to and how: our own control session again (a restart after a crash
   * left it running), or a new one — under the usual name when it is free, under a fresh unique
   * name when a session without our tag holds it, or when tmux cannot say whose it is.
   */
  const chooseSession = async (): Promise<{ name: string; attach: boolean }> => {
    const listing = await options.fallback.run([
      'list-sessions',
      '-F',
      '#{session_name}\t#{@the-loop-owner}',
    ]);
    if (listing.exitCode !== 0 && !listing.failedToRun) {
      if (classifyTmuxFailure(listing.stderr) === 'absent') {
        return { name: options.sessionName, attach: false };
      }
    }
    const rows = listing.exitCode === 0 ? listing.stdout.split('\n') : undefined;
    const held = rows?.find((row) => row.split('\t')[0] === options.sessionName);
    if (rows && held === undefined) return { name: options.sessionName, attach: false };
    if (held === `${options.sessionName}\t${options.owner}`) {
      return { name: options.sessionName, attach: true };
    }
    return { name: `${options.sessionName}-${randomBytes(3).toString('hex')}`, attach: false };
  };

  const connect = async (): Promise<Client> => {
    const { name, attach } = await chooseSession();
    // No -A on a new one: if the name was taken in the meantime, tmux refuses (the client exits,
    // the calls waiting on it are reported unknown, the next call chooses again).
    const command = attach
      ? ['attach-session', '-t', `=${name}`]
      : [
          'new-session',
          '-s',
          name,
          '--',
          'sleep',
          '2147483647',
          ';',
          'set-option',
          '-t',
          `=${name}:`,
          '@the-loop-owner',
          options.owner,
        ];
    const child = spawn(binary, [...base, '-C', ...command], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    });
    const started: Client = { child, runs: [], session: name };
    const parser = createControlModeParser();
    const decoder = new StringDecoder('utf8');
    let partial = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const event = parser.line(line);
        if (event?.type === 'session-changed' && event.name !== name) {
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

  const connected = (): Promise<Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= connect().then(
      (started) => {
        client = started;
        connecting = undefined;
        return started;
      },
      (error: unknown) => {
        connecting = undefined;
        throw error;
      },
    );
    return connecting;
  };

  const send = async (line: string): Promise<TmuxResult> => {
    let current: Client;
    try {
      current = await connected();
    } catch (error) {
      return unknownOutcome(`tmux control client failed to start: ${String(error)}`);
    }
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
    // Synchronous: this file is on every delivery's path, and writing a few kilobytes takes
    // microseconds, while the open, write, close and unlink through the thread pool were four
    // hand-offs and back, a good part of what the path adds to a bare tmux call (docs/design.md §10).
    // Under heavy disk load the create can wait for a journal commit; a delivery is worth that.
    // Nothing here needs an fsync: the file lives for one load-buffer.
    // Removed in `finally` even when the write itself fails (a full disk leaves a part behind).
    try {
      try {
        writeFileSync(file, input, { mode: 0o600 });
      } catch (error) {
        // The folder is made on first use and again if someone removed it.
        if (errnoCode(error) !== 'ENOENT') throw error;
        await ensurePrivateDir(options.scratchDir);
        writeFileSync(file, input, { mode: 0o600 });
      }
      const line = controlModeLine(args.map((arg, index) => (index === dash ? file : arg)));
      return line === undefined || closed ? undefined : await send(line);
    } finally {
      try {
        unlinkSync(file);
      } catch {
        // Never written, or already gone: nothing is left behind either way.
      }
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
      const current = client ?? (await connecting?.catch(() => undefined));
      if (!current) return;
      const exited = new Promise<void>((resolve) => current.child.once('close', () => resolve()));
      // Only a session that still carries our tag is killed (its name alone proves nothing).
      const ours = `#{==:#{@the-loop-owner},${options.owner}}`;
      // The name is ours and plain (no quote can be in it), so it may sit inside double quotes.
      const kill = `kill-session -t "=${current.session}"`;
      current.child.stdin?.end(
        `${controlModeLine(['if-shell', '-F', '-t', `=${current.session}:`, ours, kill])}\n`,
      );
      const timer = setTimeout(() => drop(current, 'closing'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
