import { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { CliIo, SignalSource } from '../../../src/cli/cli-io.js';

export interface FakeIo {
  readonly io: CliIo;
  /** Everything written to stdout so far. */
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exits: number[];
  readonly signals: EventEmitter;
}

export interface FakeIoOptions {
  /** stdin's whole content; `endless` never ends; `terminal` is an interactive terminal. */
  readonly stdin?: string | 'endless' | 'terminal';
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** An io that records what the CLI writes, for running `main()` in-process. */
export function fakeIo(options: FakeIoOptions = {}): FakeIo {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const signals = new EventEmitter();
  const io: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin: makeStdin(options.stdin),
    env: { HOME: '/nonexistent-home', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signals: signals as SignalSource,
    exit: (code) => exits.push(code),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join(''), exits, signals };
}

function makeStdin(stdin: FakeIoOptions['stdin']): Readable {
  if (stdin === 'endless') return new PassThrough();
  if (stdin === 'terminal') return Object.assign(new PassThrough(), { isTTY: true });
  return Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]);
}
