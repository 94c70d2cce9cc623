import path from 'node:path';
import type { HttpMethod } from '../api/route.js';
import { loadConfig } from '../config/load-config.js';
import type { Config } from '../config/types.js';
import { connect } from '../sdk/connect.js';
import type { Loop } from '../sdk/create-loop.js';
import type { CliIo } from './cli-io.js';
import type { CommandId } from './command-specs.js';
import { formatUsage } from './help.js';
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
  /**
   * The SDK's client (`connect`, docs/sdk.md), found as every command finds serve: --config,
   * $THE_LOOP_CONFIG, inside a session its $THE_LOOP_SOCKET, else .the-loop/config.yaml.
   */
  loop(): Promise<Loop>;
  /** One request to `serve` through `loop()`; a non-2xx answer throws its LoopError. */
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
  let loop: Promise<Loop> | undefined;
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
    loop: () =>
      (loop ??= connect({
        ...(typeof configFlag === 'string' ? { config: configFile } : {}),
        env: io.env,
        cwd: io.cwd,
      })),
    api: async <T>(method: HttpMethod, apiPath: string, body?: unknown): Promise<T> =>
      (await context.loop()).request<T>(method, apiPath, body),
    print: (text) => io.stdout.write(`${text}\n`),
    printJson: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    usageError: (message) => {
      io.stderr.write(`error: ${message}\n${formatUsage(command)}\n`);
      return 2;
    },
  };
  return context;
}

/** Runs one command; returns the exit code. A thrown error is reported by `main`. */
export type CommandHandler = (context: CommandContext) => Promise<number>;
