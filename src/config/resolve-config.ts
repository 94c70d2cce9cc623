import path from 'node:path';
import { LoopError } from '../errors.js';
import { ConfigError, type ConfigIssue } from './config-error.js';
import { crossKeyIssues } from './cross-key-issues.js';
import { keyPath } from './key-path.js';
import type { RawSession } from './raw-config.js';
import { resolveHarnesses } from './resolve-harnesses.js';
import { resolveInstance } from './resolve-instance.js';
import type { Config, StandingSessionConfig } from './types.js';
import { validateRawConfig } from './validate-raw-config.js';
import { isRecord } from '../guards.js';

export interface ResolveConfigOptions {
  /** The home directory a leading `~/` in a path stands for; unset, such paths are refused. */
  readonly home?: string | undefined;
}

type Segments = (string | number)[];

/**
 * Everything `loadConfig` does except reading the file: validates the parsed YAML against the
 * schema, applies defaults, merges harnesses, resolves relative paths against the directory of
 * `configPath` (which must be absolute) and judges the instance block. Throws a ConfigError
 * listing every issue; returns a frozen Config.
 */
export function resolveConfig(
  raw: unknown,
  configPath: string,
  options: ResolveConfigOptions = {},
): Config {
  if (!path.isAbsolute(configPath)) {
    throw new LoopError(
      'internal',
      `resolveConfig needs an absolute config path, not ${configPath}`,
    );
  }
  const validated = validateRawConfig(raw);
  if (!validated.ok) throw new ConfigError(configPath, validated.issues);
  const value = validated.value;

  const { harnesses, issues } = resolveHarnesses(value.harnesses);
  issues.push(...crossKeyIssues(value, Object.keys(harnesses)));
  const resolvePath = pathResolver(path.dirname(configPath), options.home, issues);

  const defaultsCwd = resolvePath(value.defaults.cwd, ['defaults', 'cwd']);
  const session = (entry: RawSession, index: number): StandingSessionConfig => {
    const at = (key: string): Segments => ['standing', 'sessions', index, key];
    return {
      name: entry.name,
      description: entry.description,
      harness: entry.harness ?? value.defaults.harness,
      args: entry.args,
      cwd: entry.cwd === undefined ? defaultsCwd : resolvePath(entry.cwd, at('cwd')),
      ...(entry.prompt === undefined ? {} : { prompt: entry.prompt }),
      ...(entry.promptFile === undefined
        ? {}
        : { promptFile: resolvePath(entry.promptFile, at('promptFile')) }),
      autoStart: entry.autoStart,
      slack: entry.slack === false ? false : { channel: entry.slack.channel ?? '' },
    };
  };

  const { instance, warnings } = resolveInstance(instanceBlock(raw));
  const config: Config = {
    configPath,
    instance,
    instanceWarnings: warnings.map((warning) => `${warning.path}: ${warning.message}`),
    state: { ...value.state, root: resolvePath(value.state.root, ['state', 'root']) },
    tmux: value.tmux,
    harnesses,
    defaults: { harness: value.defaults.harness, cwd: defaultsCwd },
    standing: {
      autoStart: value.standing.autoStart,
      allowedRoots: value.standing.allowedRoots.map((root, index) =>
        resolvePath(root, ['standing', 'allowedRoots', index]),
      ),
      sessions: value.standing.sessions.map(session),
    },
    delivery: value.delivery,
    slack: { ...value.slack, approvers: value.slack.approvers ?? value.slack.authorizedUsers },
    github: {
      ...value.github,
      approvers: value.github.approvers ?? value.github.authorizedUsers,
      repos: value.github.repos.map((entry, index) => ({
        repo: entry.repo,
        path: resolvePath(entry.path, ['github', 'repos', index, 'path']),
      })),
    },
    permissions: value.permissions,
    agents: value.agents,
    http: value.http,
    api: value.api,
    dashboard: value.dashboard,
    ...(value.fleet ? { fleet: value.fleet } : {}),
  };
  if (value.fleet && instance.name === '') issues.push(fleetNeedsName);
  if (issues.length > 0) throw new ConfigError(configPath, issues);
  return deepFreeze(config);
}

const fleetNeedsName: ConfigIssue = {
  path: 'instance.name',
  code: 'invalid_value',
  message: 'a fleet instance needs a name, unique in the fleet: set `instance.name`',
};

function instanceBlock(raw: unknown): unknown {
  return isRecord(raw) && Object.hasOwn(raw, 'instance') ? raw['instance'] : undefined;
}

function pathResolver(
  base: string,
  home: string | undefined,
  issues: ConfigIssue[],
): (value: string, segments: Segments) => string {
  return (value, segments) => {
    if (value !== '~' && !value.startsWith('~/')) return path.resolve(base, value);
    if (home !== undefined && path.isAbsolute(home)) return path.resolve(home, value.slice(2));
    issues.push({
      path: keyPath(segments),
      code: 'invalid_value',
      message: 'starts with `~` but HOME is not set: write the full path instead',
    });
    return value;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
