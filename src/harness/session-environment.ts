import path from 'node:path';
import { isSecretVariable, secretVariables } from '../tmux/tmux-environment.js';

/** What a new session's harness runs with: variables to set, and variables to remove first. */
export interface SessionEnvironment {
  readonly set: Readonly<Record<string, string>>;
  /** Removed with `env -u` before the harness starts: a tmux server may hold them globally. */
  readonly unset: readonly string[];
}

export interface SessionEnvironmentInput {
  /** The environment `serve` runs with. */
  readonly serveEnv: NodeJS.ProcessEnv;
  /** The session's own variables (THE_LOOP_INSTANCE, THE_LOOP_SESSION, …); they win. */
  readonly sessionVars: Readonly<Record<string, string>>;
  /** the-loop's `bin/` folder, appended to PATH so `the-loop post` is found. */
  readonly loopBinDir: string;
  /** The names in the tmux server's global environment, which a new session starts with. */
  readonly serverNames?: readonly string[];
}

/**
 * Variables that describe the terminal `serve` runs in, or the process itself; the pane has its
 * own (tmux sets TERM, TMUX and TMUX_PANE; the shell sets PWD and SHLVL), so serve's would lie.
 */
const terminalVariables = new Set([
  'TERM',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'TMUX',
  'TMUX_PANE',
  'COLUMNS',
  'LINES',
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
]);

/** What npm adds besides its `npm_*` variables when it runs a script (`npm start`, `npx`). */
const npmExtras = new Set(['INIT_CWD', 'NODE', 'COLOR']);

/** Folders npm puts in front of PATH for a script: every `node_modules/.bin` up to `/`, node-gyp-bin. */
function isNpmPathEntry(entry: string): boolean {
  return /[/\\]node_modules[/\\]\.bin[/\\]?$/.test(entry) || /[/\\]node-gyp-bin[/\\]?$/.test(entry);
}

/**
 * Sessions inherit serve's environment (docs/design.md §8) — a tmux server that was already running would
 * otherwise give them only its own, so `ANTHROPIC_*` and the like never reached the agent — minus
 * the-loop's own secrets, minus what npm added when it started serve, and minus serve's terminal.
 * PATH keeps the user's order; the-loop's bin/ goes last, so it never shadows the user's tools
 * (pyenv shims, a newer node) and `the-loop` is still found.
 */
export function sessionEnvironment(input: SessionEnvironmentInput): SessionEnvironment {
  const { serveEnv } = input;
  const serverNames = input.serverNames ?? [];
  const startedByNpm = isNpmEnvironment(Object.keys(serveEnv));
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(serveEnv)) {
    if (value === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    if (isSecretVariable(name) || terminalVariables.has(name) || name === 'PATH') continue;
    if (isNpmVariable(name, startedByNpm)) continue;
    set[name] = value;
  }
  set['PATH'] = sessionPath(serveEnv['PATH'] ?? '', input.loopBinDir, startedByNpm);
  const all = { ...set, ...input.sessionVars };
  // A server started by an npm script (an earlier `npm start`) holds npm's variables globally.
  const serverByNpm = isNpmEnvironment(serverNames);
  const unwanted = [
    ...secretVariables,
    ...Object.keys(serveEnv).filter(isSecretVariable),
    ...serverNames.filter((name) => isSecretVariable(name) || isNpmVariable(name, serverByNpm)),
  ];
  // `env -u` runs inside the pane, after tmux set the variables: it must not remove our own.
  const unset = [...new Set(unwanted)].filter((name) => !(name in all));
  return { set: all, unset };
}

function isNpmEnvironment(names: readonly string[]): boolean {
  return names.some((name) => name.startsWith('npm_'));
}

function isNpmVariable(name: string, npmRan: boolean): boolean {
  return name.startsWith('npm_') || (npmRan && npmExtras.has(name));
}

function sessionPath(userPath: string, loopBinDir: string, startedByNpm: boolean): string {
  const entries = userPath.split(path.delimiter).filter((entry) => entry !== '');
  // npm puts its folders in front; only that leading run is npm's, a later one is the user's.
  let first = 0;
  while (startedByNpm && first < entries.length && isNpmPathEntry(entries[first] ?? '')) first++;
  const kept = entries.slice(first);
  const bin = path.resolve(loopBinDir);
  // Already on the user's PATH: their order stands, the-loop adds nothing.
  if (kept.some((entry) => path.resolve(entry) === bin)) return kept.join(path.delimiter);
  return [...kept, bin].join(path.delimiter);
}

/**
 * The session's variables as a POSIX shell file (`export NAME='value'`, single-quoted, so any byte
 * but NUL survives). The harness's command sources it before it starts (see buildSpawnArgs):
 * serve's environment can hold an API key, and as `new-session -e` flags it would sit in the argv
 * of a `tmux` process, which every local user can read.
 */
export function envFileText(set: Readonly<Record<string, string>>): string {
  return Object.entries(set)
    .map(([name, value]) => `export ${name}='${value.replace(/'/g, `'\\''`)}'\n`)
    .join('');
}
