import { isDeepStrictEqual } from 'node:util';
import { keyPath } from './key-path.js';
import type { Config } from './types.js';
import { isRecord } from '../guards.js';

/** How a key takes a new value: at once (`live`) or only when serve starts again (`restart`). */
export type ReloadKind = 'live' | 'restart';

/**
 * Which keys a reload applies (docs/design.md §22; the table in docs/configuration.md says the
 * same, and a test keeps them equal). The longest prefix that matches a key path decides; a key
 * no prefix matches needs a restart, so a key added later is never claimed to apply until the
 * part that reads it reads it live.
 */
export const reloadRules: Readonly<Record<string, ReloadKind>> = {
  'instance.scope': 'live',
  harnesses: 'live',
  defaults: 'live',
  standing: 'live',
  'slack.channel': 'live',
  'slack.authorizedUsers': 'live',
  'slack.approvers': 'live',
  'slack.progress': 'live',
  'github.authorizedUsers': 'live',
  'github.approvers': 'live',
  'github.keyword': 'live',
  'github.permissions': 'live',
  'permissions.timeoutSeconds': 'live',
  'permissions.alwaysModes': 'live',
  agents: 'live',
};

/** Keys that are not settings: where the file is, and what the instance block resolved to. */
const notCompared = new Set(['configPath', 'instanceWarnings']);

export interface ConfigDiff {
  /** Every key path whose value differs, in the config's order. */
  readonly changed: readonly string[];
  /** The changed keys a reload applies now. */
  readonly applied: readonly string[];
  /** The changed keys that keep their running value until serve restarts. */
  readonly needsRestart: readonly string[];
}

type Segments = readonly (string | number)[];

/** What differs between the running config and a freshly loaded one, and what of it applies. */
export function diffConfig(running: Config, next: Config): ConfigDiff {
  const changes = changedPaths(running, next, []).filter(
    (segments) => !notCompared.has(String(segments[0])),
  );
  const changed = changes.map(keyPath);
  return {
    changed,
    applied: changed.filter((path) => reloadKind(path) === 'live'),
    needsRestart: changed.filter((path) => reloadKind(path) === 'restart'),
  };
}

/**
 * The config serve runs on after a reload: the new file's values, except that every key needing
 * a restart keeps its running value, so no part sees a value it does not apply.
 */
export function reloadedConfig(running: Config, next: Config): Config {
  let result: unknown = next;
  for (const segments of changedPaths(running, next, [])) {
    if (notCompared.has(String(segments[0]))) continue;
    if (reloadKind(keyPath(segments)) === 'restart') {
      result = withValueAt(result, segments, valueAt(running, segments));
    }
  }
  return result as Config;
}

export function reloadKind(path: string): ReloadKind {
  let best: { prefix: string; kind: ReloadKind } | undefined;
  for (const [prefix, kind] of Object.entries(reloadRules)) {
    const matches =
      path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
    if (matches && (best === undefined || prefix.length > best.prefix.length)) {
      best = { prefix, kind };
    }
  }
  return best?.kind ?? 'restart';
}

/** Leaf paths that differ; objects are compared key by key, arrays and scalars as one value. */
function changedPaths(before: unknown, after: unknown, at: Segments): Segments[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => changedPaths(before[key], after[key], [...at, key]));
  }
  return isDeepStrictEqual(before, after) ? [] : [at];
}

function valueAt(value: unknown, segments: Segments): unknown {
  let current = value;
  for (const segment of segments) {
    if (!isRecord(current)) return undefined;
    current = current[String(segment)];
  }
  return current;
}

function withValueAt(target: unknown, segments: Segments, value: unknown): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return value;
  const object = isRecord(target) ? target : {};
  const key = String(head);
  const inner = withValueAt(object[key], rest, value);
  const { [key]: _old, ...others } = object;
  return Object.freeze(inner === undefined ? others : { ...others, [key]: inner });
}
