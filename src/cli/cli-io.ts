import type { Readable } from 'node:stream';

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
