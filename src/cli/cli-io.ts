// The CLI's effects (streams, env, signals, exit), passed in so tests run it in-process, and the
// small reads of them: is this a terminal, the first stop signal, the package version.
import type { Readable } from 'node:stream';
import { readFile } from 'node:fs/promises';
import { isRecord } from '../guards.js';

/** Anything that takes text: process.stdout, a pino destination, a test's recorder. */
export interface TextSink {
  write(text: string): unknown;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Every signal `serve` handles: the stop signals, and SIGHUP, which reloads the config. */
export type ServeSignal = StopSignal | 'SIGHUP';

/** Where `serve` hears that it should stop or reload; process in real life, an emitter in tests. */
export interface SignalSource {
  on(signal: ServeSignal, listener: () => void): unknown;
  once(signal: ServeSignal, listener: () => void): unknown;
  off(signal: ServeSignal, listener: () => void): unknown;
}

/**
 * Every effect the CLI has, passed in so tests run `main()` in-process. `signals` and `exit` are
 * used only by `serve` (a second Ctrl-C must end the process at once).
 */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly stdin: Readable;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly signals?: SignalSource;
  readonly exit?: (code: number) => void;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signals: process,
    exit: (code) => process.exit(code),
  };
}

/** A person at a terminal: then a missing TEXT is a mistake, not "read stdin". */
export function isInteractive(stream: Readable): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

const stopSignals: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * Resolves with the first SIGINT or SIGTERM, or with undefined once `cancel` aborts; either way it
 * stops listening, so no handler of ours outlives the wait.
 */
export function waitForStop(
  signals: SignalSource,
  cancel?: AbortSignal,
): Promise<StopSignal | undefined> {
  return new Promise((resolve) => {
    const handlers = new Map<StopSignal, () => void>();
    const finish = (signal: StopSignal | undefined): void => {
      for (const [each, handler] of handlers) signals.off(each, handler);
      cancel?.removeEventListener('abort', onAbort);
      resolve(signal);
    };
    const onAbort = (): void => finish(undefined);
    for (const signal of stopSignals) handlers.set(signal, () => finish(signal));
    for (const [signal, handler] of handlers) signals.once(signal, handler);
    if (cancel?.aborted) finish(undefined);
    else cancel?.addEventListener('abort', onAbort);
  });
}

/** The package version, from the package.json two folders above this file (dist/cli/ or src/cli/). */
export async function readVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  const version = isRecord(parsed) ? parsed['version'] : undefined;
  return typeof version === 'string' ? version : 'unknown';
}
