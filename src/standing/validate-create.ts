import path from 'node:path';
import type { Config } from '../config/types.js';
import { LoopError } from '../errors.js';
import { isValidName, nameProblem } from '../refs.js';
import { allowedCwd } from './start-plan.js';
import type { StandingDefinition } from './standing-types.js';

/** A create request as the API, CLI and Slack send it; harness arguments are never accepted. */
export interface CreateInput {
  readonly name?: unknown;
  readonly harness?: unknown;
  readonly cwd?: unknown;
  readonly prompt?: unknown;
  readonly description?: unknown;
  readonly slackChannel?: unknown;
  readonly start?: unknown;
  readonly autoStart?: unknown;
}

const allowedKeys = new Set([
  'name',
  'harness',
  'cwd',
  'prompt',
  'description',
  'slackChannel',
  'start',
  'autoStart',
]);

/**
 * Turns untrusted create input into a definition, or refuses it: a valid name, a configured
 * harness, a cwd that is really (after symlinks) under `standing.allowedRoots`, no unknown fields.
 */
export async function validateCreate(
  input: CreateInput,
  config: Config,
): Promise<{ definition: StandingDefinition; start: boolean }> {
  for (const key of Object.keys(input)) {
    if (!allowedKeys.has(key)) {
      const hint = key === 'args' ? '; harness arguments can only come from the config' : '';
      throw new LoopError('bad_request', `unknown field \`${key}\`${hint}`);
    }
  }
  const name = input.name;
  if (typeof name !== 'string' || !isValidName(name)) {
    throw new LoopError('invalid_name', nameProblem(String(name ?? '')));
  }
  const harness = optionalString(input.harness, 'harness') ?? config.defaults.harness;
  if (!config.harnesses[harness]) {
    throw new LoopError(
      'harness_unknown',
      `harness \`${harness}\` is not configured; use one of: ${Object.keys(config.harnesses).join(', ')}`,
    );
  }
  const requested = optionalString(input.cwd, 'cwd');
  const cwd = requested
    ? path.resolve(path.dirname(config.configPath), requested)
    : config.defaults.cwd;
  const real = await allowedCwd(cwd, config);
  const prompt = optionalString(input.prompt, 'prompt');
  const slackChannel = optionalString(input.slackChannel, 'slackChannel');
  return {
    definition: {
      name,
      description: optionalString(input.description, 'description') ?? '',
      harness,
      args: [],
      cwd: real,
      ...(prompt ? { prompt } : {}),
      autoStart: optionalBoolean(input.autoStart, 'autoStart') ?? true,
      slack: { channel: slackChannel ?? '' },
    },
    start: optionalBoolean(input.start, 'start') ?? true,
  };
}

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new LoopError('bad_request', `\`${key}\` must be a string`);
  return value;
}

function optionalBoolean(value: unknown, key: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw new LoopError('bad_request', `\`${key}\` must be true or false`);
  return value;
}
