import { unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { App } from '../../app-types.js';
import { errnoCode } from '../../errors.js';
import { chooseLogFormat } from '../../log/choose-log-format.js';
import { createLogger, type Logger } from '../../log/create-logger.js';
import { printable } from '../../refs.js';
import { type CliIo, type StopSignal, readVersion, waitForStop } from '../cli-io.js';
import type { CommandHandler } from '../command-context.js';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const signalExitCodes = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * `the-loop serve`: logs on stdout (JSON lines, or readable ones on a terminal), tells people on
 * stderr. Stops serving on SIGINT or SIGTERM and leaves the sessions running (agents keep working
 * across a restart of the bot); a second signal while stopping ends the process at once. SIGHUP
 * reloads the config (docs/design.md §18, §22): no signal it handles leaves the socket behind.
 */
export const runServe: CommandHandler = async (context) => {
  const { io } = context;
  const level = io.env['THE_LOOP_LOG_LEVEL'] || 'info';
  if (!logLevels.includes(level)) {
    io.stderr.write(
      `error: THE_LOOP_LOG_LEVEL is \`${printable(level)}\`: set it to one of ${logLevels.join(', ')}\n`,
    );
    return 2;
  }
  const logFormat = chooseLogFormat(io.env['THE_LOOP_LOG_FORMAT'], isTerminal(io.stdout));
  if (logFormat.format === undefined) {
    io.stderr.write(`error: ${logFormat.problem}\n`);
    return 2;
  }
  const config = await context.loadConfig();
  const logger = createLogger({ level, destination: io.stdout, format: logFormat.format });
  // Loaded here, not at the top: the other commands (above all `hook`, which has about a second)
  // should not pay for loading Bolt, Octokit and the rest of serve.
  const { createApp } = await import('../../app.js');
  const app = await createApp({
    config,
    env: io.env,
    logger,
    loopCommand: loopCommand(),
    version: await readVersion(),
  });
  for (const line of app.surfacesOff) io.stderr.write(`${line}\n`);
  // Before the socket exists: a signal's default action would end serve and leave it behind. A
  // stop asked for while starting is done once the start is over.
  const reloads = reloadOnHangup(app, io);
  const stopAsked = waitForStop(io.signals ?? process);
  await startOrRelease(app, logger);
  io.stderr.write(
    `the-loop serve: listening on ${app.paths.controlSocket}; Ctrl-C stops serving ` +
      '(the sessions keep running)\n',
  );
  await stopOnSignal(app, io, { controlSocket: app.paths.controlSocket, reloads, stopAsked });
  // Deliveries still waiting (for a session to become ready, for a confirmation) hold timers that
  // would keep the process alive for many seconds. They are abandoned, not lost: Slack and GitHub
  // messages stay in the inbox until handled, and the sessions keep running.
  (io.exit ?? ((code: number) => process.exit(code)))(0);
  return 0;
};

function isTerminal(stream: object): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

async function startOrRelease(app: App, logger: Logger): Promise<void> {
  try {
    await app.start();
  } catch (error) {
    await app.stop().catch((stopError: unknown) => {
      logger.warn({ err: stopError }, 'cleaning up after a failed start failed too');
    });
    throw error;
  }
}

/**
 * SIGHUP reloads the config, one reload at a time, saying on stderr what it did; once serve is
 * stopping it is only noted. The handler stays to the end, so a late SIGHUP never kills serve.
 */
export function reloadOnHangup(app: Pick<App, 'reload'>, io: CliIo): { stopping(): void } {
  const signals = io.signals ?? process;
  let stopping = false;
  signals.on('SIGHUP', () => {
    if (stopping) {
      io.stderr.write('the-loop serve: SIGHUP while stopping, not reloaded\n');
      return;
    }
    io.stderr.write('the-loop serve: SIGHUP, reloading the config\n');
    app.reload('signal').then(
      (answer) => io.stderr.write(`the-loop serve: ${describeReload(answer)}\n`),
      (error: unknown) =>
        io.stderr.write(
          `the-loop serve: config reload refused, nothing changed: ${error instanceof Error ? error.message : String(error)}\n`,
        ),
    );
  });
  return {
    stopping: () => {
      stopping = true;
    },
  };
}

function describeReload(answer: Awaited<ReturnType<App['reload']>>): string {
  const applied = answer.applied.length ? answer.applied.join(', ') : 'nothing changed';
  const restart = answer.needsRestart.length
    ? `; needs a restart: ${answer.needsRestart.join(', ')}`
    : '';
  return `config reloaded: ${applied}${restart}`;
}

/**
 * Waits for SIGINT or SIGTERM, then stops the app; a second signal ends the process at once,
 * removing the control socket first (the app's stop removes it otherwise).
 */
export async function stopOnSignal(
  app: Pick<App, 'stop'>,
  io: CliIo,
  options: {
    readonly controlSocket?: string;
    readonly reloads?: { stopping(): void };
    /** A wait for the stop signal begun earlier (before serve started). */
    readonly stopAsked?: Promise<StopSignal | undefined>;
  } = {},
): Promise<void> {
  const { controlSocket, reloads } = options;
  const signals = io.signals ?? process;
  const signal = await (options.stopAsked ?? waitForStop(signals));
  reloads?.stopping();
  io.stderr.write(`the-loop serve: ${signal ?? 'stop'}, stopping (again to stop at once)\n`);
  const stopped = new AbortController();
  void waitForStop(signals, stopped.signal).then((again) => {
    if (again === undefined) return;
    io.stderr.write(`the-loop serve: ${again} again, exiting now\n`);
    if (controlSocket !== undefined) removeSocket(controlSocket, io);
    exitAtOnce(again, io);
  });
  try {
    await app.stop();
  } finally {
    stopped.abort();
  }
}

/** Synchronous: the process ends right after, before any callback could run. */
function removeSocket(socketPath: string, io: CliIo): void {
  try {
    unlinkSync(socketPath);
  } catch (error) {
    // ENOENT: the server's close got there first.
    if (errnoCode(error) !== 'ENOENT') {
      io.stderr.write(`the-loop serve: could not remove ${socketPath}: ${String(error)}\n`);
    }
  }
}

/**
 * Ends the process whatever is still running. `process.exit` waits for libuv's file threads, and
 * one blocked in open(2) (a FIFO, a hung network mount) never returns, so the real process is
 * ended by its own signal with the default action instead — the status a shell expects (143 for
 * SIGTERM). A test's injected signal source gets `exit` with the same code.
 */
function exitAtOnce(signal: StopSignal, io: CliIo): void {
  if ((io.signals ?? process) === process) {
    // With no listener left, Node restores the default action, which terminates the process.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  (io.exit ?? ((code: number) => process.exit(code)))(signalExitCodes[signal]);
}

/**
 * The argv that runs this CLI again, for the hooks and `the-loop post` of the sessions serve
 * starts. Absolute, so it works from any cwd; this file sits at dist/cli/commands/ (or
 * src/cli/commands/ under the tests), three folders below bin/.
 */
function loopCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('../../../bin/the-loop', import.meta.url))];
}
