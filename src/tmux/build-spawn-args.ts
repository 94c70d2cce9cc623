import { paneTarget } from './exact-target.js';
import type { SpawnSpec } from './tmux-driver.js';

/**
 * The tmux argv for a new session. The command goes after `--` as separate arguments, which tmux
 * executes without a shell; a one-element command would go through `sh -c`, so it is wrapped in
 * `env --`. Before tmux 3.2 there is no `new-session -e`, so variables travel as `env` operands;
 * PATH always does, because tmux sets a new pane's PATH from its client and ignores `-e PATH`.
 * Variables to remove go to `env -u`: a tmux server started earlier puts its global environment
 * into every new session, and `-e` can only add to it, never take away. Variables that must not
 * be seen in argv go in `envFile`, which `/bin/sh` sources (and removes) before the command.
 * The owner tag and remain-on-exit are set in the same tmux call, before the process can exit.
 */
export function buildSpawnArgs(spec: SpawnSpec, sessionEnvSupported: boolean): string[] {
  const entries = Object.entries(spec.env);
  const viaEnvCommand = entries.filter(([key]) => !sessionEnvSupported || key === 'PATH');
  const viaFlags = entries.filter(([key]) => sessionEnvSupported && key !== 'PATH');
  const pair = ([key, value]: [string, string]) => literalArgument(`${key}=${value}`);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(spec.owner)) throw new Error('owner id must be a plain token');
  const unset = spec.unsetEnv ?? [];
  for (const key of [...Object.keys(spec.env), ...unset]) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`invalid environment name ${key}`);
  }
  const argv = spec.argv.map(literalArgument);
  const unsetFlags = unset.flatMap((key) => ['-u', key]);
  // sh reads the file, deletes it (nothing left at rest) and becomes the command.
  const sourced = spec.envFile
    ? ['/bin/sh', '-c', '. "$0" && rm -f -- "$0" && exec "$@"', literalArgument(spec.envFile)]
    : [];
  const command =
    viaEnvCommand.length > 0 || unset.length > 0 || argv.length === 1 || spec.envFile
      ? ['env', ...unsetFlags, '--', ...viaEnvCommand.map(pair), ...sourced, ...argv]
      : argv;
  const envFlags = viaFlags.flatMap((entry) => ['-e', pair(entry)]);
  return [
    'new-session',
    '-d',
    '-s',
    spec.name,
    '-c',
    literalArgument(spec.cwd),
    '-x',
    String(spec.width ?? 200),
    '-y',
    String(spec.height ?? 50),
    ...envFlags,
    '--',
    ...command,
    ';',
    'set-option',
    '-w',
    '-t',
    paneTarget(spec.name),
    'remain-on-exit',
    'on',
    ';',
    'set-option',
    '-t',
    paneTarget(spec.name),
    '@the-loop-owner',
    spec.owner,
  ];
}

/**
 * tmux reads an argument that ends in `;` as "this argument, then a new command", so `x;` would
 * let a configured argument start a second tmux command. A backslash before the final `;` keeps it
 * literal; an argument that already ends in `\\;` arrives unchanged the same way.
 */
export function literalArgument(value: string): string {
  return value.endsWith(';') ? `${value.slice(0, -1)}\\;` : value;
}
