import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createApiClient } from '../api/create-api-client.js';
import type { HttpMethod } from '../api/route.js';
import { unwrap } from '../api/unwrap.js';
import { isConfigError } from '../config/config-error.js';
import { lenientStateRoot } from '../config/lenient-state-root.js';
import { loadConfig } from '../config/load-config.js';
import type { Config } from '../config/types.js';
import { statePaths } from '../state/state-paths.js';
import type { CliIo } from './cli-io.js';
import type { CommandId } from './command-specs.js';
import { formatUsage } from './format-usage.js';
import type { FlagValues } from './parse-cli-args.js';

/** What a command handler gets: its parsed input, the io, and the ways to reach config and serve. */
export interface CommandContext {
  readonly io: CliIo;
  readonly command: CommandId;
  readonly args: Readonly<Record<string, string>>;
  readonly json: boolean;
  /** The config file, absolute: --config, else $THE_LOOP_CONFIG, else .the-loop/config.yaml. */
  readonly configFile: string;
  stringFlag(name: string): string | undefined;
  /** Every value of a repeatable flag, in order; [] when it was not given. */
  stringFlags(name: string): readonly string[];
  hasFlag(name: string): boolean;
  /** Loaded once; throws ConfigError. */
  loadConfig(): Promise<Config>;
  /** One request to `serve` over the config's control socket; a non-2xx answer throws its LoopError. */
  api<T>(method: HttpMethod, apiPath: string, body?: unknown): Promise<T>;
  print(text: string): void;
  printJson(value: unknown): void;
  /** Prints the problem and this command's usage on stderr; returns exit code 2. */
  usageError(message: string): number;
}

export const defaultConfigFile = '.the-loop/config.yaml';

export function createCommandContext(
  io: CliIo,
  command: CommandId,
  args: Readonly<Record<string, string>>,
  flags: FlagValues,
): CommandContext {
  const configFlag = flags['config'];
  const configFile = path.resolve(
    io.cwd,
    typeof configFlag === 'string' ? configFlag : io.env['THE_LOOP_CONFIG'] || defaultConfigFile,
  );
  let config: Promise<Config> | undefined;
  const context: CommandContext = {
    io,
    command,
    args,
    json: flags['json'] === true,
    configFile,
    stringFlag: (name) => {
      const value = flags[name];
      return typeof value === 'string' ? value : undefined;
    },
    stringFlags: (name) => {
      const value = flags[name];
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    },
    hasFlag: (name) => flags[name] !== undefined,
    loadConfig: () => (config ??= loadConfig(configFile, { env: io.env, cwd: io.cwd })),
    async api<T>(method: HttpMethod, apiPath: string, body?: unknown): Promise<T> {
      const socketPath = await controlSocketFor(context);
      const client = createApiClient({ socketPath });
      return unwrap(await client.request<T>(method, apiPath, body));
    },
    print: (text) => io.stdout.write(`${text}\n`),
    printJson: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    usageError: (message) => {
      io.stderr.write(`error: ${message}\n${formatUsage(command)}\n`);
      return 2;
    },
  };
  return context;
}

/**
 * The control socket of the serve this config file belongs to. A file that no longer validates
 * (edited while serve runs, before `the-loop reload`) still names its state root: serve found
 * there answers, so `status` can show the failed reload; with no serve there, the file's own
 * problems are the error (exit 2).
 */
async function controlSocketFor(context: CommandContext): Promise<string> {
  try {
    return statePaths((await context.loadConfig()).state.root).controlSocket;
  } catch (error) {
    if (!isConfigError(error)) throw error;
    const socketPath = await lenientControlSocket(context.configFile, context.io.env);
    if (await answers(socketPath)) return socketPath;
    throw error;
  }
}

/** The control socket from the file's `state.root`, read leniently (never validating the file). */
export async function lenientControlSocket(
  configFile: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  // Unreadable or missing, the file says nothing: the default root beside it is tried.
  const text = await readFile(configFile, 'utf8').catch(() => '');
  return statePaths(lenientStateRoot(text, configFile, env['HOME'])).controlSocket;
}

async function answers(socketPath: string): Promise<boolean> {
  const client = createApiClient({ socketPath, timeoutMs: 2_000 });
  const health = await client.request('GET', '/api/v1/health').catch(() => undefined);
  return health?.status === 200;
}

/** Runs one command; returns the exit code. A thrown error is reported by `main`. */
export type CommandHandler = (context: CommandContext) => Promise<number>;
