import { execa } from 'execa';

export interface TmuxResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** No answer at all (timeout, tmux missing): the caller must not read this as "absent". */
  readonly failedToRun: boolean;
  /** The tmux program itself could not be found: the one case where "install tmux" is the fix. */
  readonly missing?: boolean;
}

/** Runs one tmux command (or a `;`-separated sequence) against one server. */
export interface TmuxRunner {
  run(args: readonly string[], input?: string): Promise<TmuxResult>;
}

export interface ExecaTmuxRunnerOptions {
  /** "" = the user's default server; otherwise `tmux -L <socket>`. */
  readonly socket: string;
  /** Only tests set this (`/dev/null`) so a user's ~/.tmux.conf cannot change behaviour. */
  readonly configFile?: string;
  readonly timeoutMs?: number;
  readonly binary?: string;
  /** The whole environment tmux runs with (not added to ours); see tmuxEnvironment. */
  readonly env?: NodeJS.ProcessEnv;
}

/** What every tmux client of ours is started with, before its command. */
export function tmuxClientArgs(options: { socket: string; configFile?: string }): string[] {
  return [
    ...(options.socket ? ['-L', options.socket] : []),
    ...(options.configFile ? ['-f', options.configFile] : []),
    // UTF-8 output whatever the locale (a systemd unit often has none): else non-ASCII reads `_`.
    '-u',
  ];
}

export function createExecaTmuxRunner(options: ExecaTmuxRunnerOptions): TmuxRunner {
  const base = tmuxClientArgs(options);
  const binary = options.binary ?? 'tmux';
  return {
    async run(args, input) {
      const result = await execa(binary, [...base, ...args], {
        input: input ?? '',
        reject: false,
        timeout: options.timeoutMs ?? 10_000,
        stripFinalNewline: false,
        ...(options.env ? { env: options.env, extendEnv: false } : {}),
      });
      const failedToRun = result.failed && (result.timedOut || result.exitCode === undefined);
      return {
        exitCode: result.exitCode ?? -1,
        stdout: String(result.stdout ?? ''),
        stderr: String(result.stderr ?? ''),
        failedToRun,
        ...(result.code === 'ENOENT' ? { missing: true } : {}),
      };
    },
  };
}
