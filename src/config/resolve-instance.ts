import { isValidName, parseWorkItemRef } from '../refs.js';
import { keyPath } from './key-path.js';
import { quote } from './quote.js';
import type { InstanceConfig, ScopeMode } from './types.js';
import { isRecord } from '../guards.js';

export interface InstanceWarning {
  /** The key at fault, such as `instance.scope.mode`. */
  readonly path: string;
  readonly message: string;
}

export interface ResolvedInstance {
  readonly instance: InstanceConfig;
  readonly warnings: readonly InstanceWarning[];
}

type Warn = (segments: (string | number)[], problem: string) => void;

const modes: readonly string[] = ['open', 'addressed', 'locked'] satisfies ScopeMode[];

/**
 * Reads the `instance` block so that a mistake can only narrow what the instance takes (docs/design.md
 * §7.4): no block is `open` and unnamed; a block with any problem is `locked`, keeps its name only
 * if the name is valid, keeps its valid work items, and yields one warning per problem. It never
 * throws: the rest of the config is not refused for this block.
 */
export function resolveInstance(raw: unknown): ResolvedInstance {
  if (raw === undefined) return { instance: build('', 'open', []), warnings: [] };
  const warnings: InstanceWarning[] = [];
  const warn: Warn = (segments, problem) => {
    warnings.push({
      path: keyPath(['instance', ...segments]),
      message: `${problem}; the instance stays locked until it is fixed`,
    });
  };
  if (!isRecord(raw)) {
    warn([], `must be a mapping with \`name\` and \`scope\`, not ${quote(raw)}`);
    return { instance: build('', 'locked', []), warnings };
  }
  reportUnknownKeys(raw, ['name', 'scope'], [], warn);
  const name = readName(raw['name'], warn);
  const { mode, workItems } = readScope(raw['scope'], name, warn);
  const resolved = build(name ?? '', warnings.length > 0 ? 'locked' : mode, workItems);
  return { instance: resolved, warnings };
}

/** The name, "" when unnamed, or undefined when the file gave an invalid one. */
function readName(value: unknown, warn: Warn): string | undefined {
  if (value === undefined || value === '') return '';
  if (isValidName(value)) return value;
  warn(
    ['name'],
    `${quote(value)} is not a valid instance name: use "" or 1–40 characters of a–z, 0–9 and ` +
      `'-', starting and ending with a letter or digit`,
  );
  return undefined;
}

function readScope(
  value: unknown,
  name: string | undefined,
  warn: Warn,
): { mode: ScopeMode; workItems: string[] } {
  const workItems: string[] = [];
  if (value === undefined) return { mode: 'open', workItems };
  if (!isRecord(value)) {
    warn(['scope'], `must be a mapping with \`mode\` and \`workItems\`, not ${quote(value)}`);
    return { mode: 'locked', workItems };
  }
  reportUnknownKeys(value, ['mode', 'workItems'], ['scope'], warn);

  let mode: ScopeMode = 'open';
  const declared = value['mode'];
  if (typeof declared === 'string' && modes.includes(declared)) mode = declared as ScopeMode;
  else if (declared !== undefined) {
    warn(
      ['scope', 'mode'],
      `${quote(declared)} is not a scope mode: use open, addressed or locked`,
    );
  }
  // An invalid name was already reported; only a missing one makes `addressed` a problem itself.
  if (mode === 'addressed' && name === '') {
    warn(
      ['scope', 'mode'],
      '`addressed` needs `instance.name`: nobody can address an unnamed instance',
    );
  }

  const items = value['workItems'];
  if (items !== undefined && !Array.isArray(items)) {
    warn(['scope', 'workItems'], `must be a list of work-item refs or URLs, not ${quote(items)}`);
  } else if (items !== undefined) {
    items.forEach((item: unknown, index: number) => {
      if (typeof item === 'string' && parseWorkItemRef(item) !== undefined) {
        workItems.push(item);
      } else {
        warn(
          ['scope', 'workItems', index],
          `${quote(item)} is not a work item: use \`github:owner/repo#12\` or an issue or pull-request URL`,
        );
      }
    });
  }
  return { mode, workItems };
}

function reportUnknownKeys(
  block: Record<string, unknown>,
  known: readonly string[],
  at: string[],
  warn: Warn,
): void {
  for (const key of Object.keys(block)) {
    if (known.includes(key)) continue;
    warn(
      [...at, key],
      `unknown key ${quote(key)}: remove it or correct its spelling (known keys here: ${known.join(', ')})`,
    );
  }
}

function build(name: string, mode: ScopeMode, workItems: readonly string[]): InstanceConfig {
  return { name, scope: { mode, workItems } };
}
