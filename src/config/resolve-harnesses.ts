import type { ConfigIssue } from './config-error.js';
import { configSchema } from './config-schema.js';
import { keyPath } from './key-path.js';
import type { RawHarness } from './raw-config.js';
import type { HarnessConfig } from './types.js';

type Kind = HarnessConfig['kind'];

const kindDefaults: Record<Kind, Pick<HarnessConfig, 'agent' | 'interruptKey'>> = {
  claude: { agent: true, interruptKey: 'Escape' },
  command: { agent: false, interruptKey: 'C-c' },
};

export interface ResolvedHarnesses {
  /** A null-prototype record: `harnesses['constructor']` is undefined, not Object's. */
  readonly harnesses: Readonly<Record<string, HarnessConfig>>;
  readonly issues: ConfigIssue[];
}

/**
 * Merges the configured harnesses over the built-ins (the schema's `harnesses.default`) by name,
 * key by key, except that another `command` does not inherit the built-in's `args`. A harness that changes the built-in's kind keeps its command and arguments but
 * takes the new kind's `agent` and `interruptKey` unless it sets them.
 */
export function resolveHarnesses(
  configured: Readonly<Record<string, RawHarness>>,
): ResolvedHarnesses {
  const builtins = builtinHarnesses();
  const harnesses: Record<string, HarnessConfig> = Object.create(null) as Record<
    string,
    HarnessConfig
  >;
  const issues: ConfigIssue[] = [];
  for (const [name, builtin] of Object.entries(builtins)) harnesses[name] = builtin;
  for (const [name, own] of Object.entries(configured)) {
    const base = Object.hasOwn(builtins, name) ? builtins[name] : undefined;
    const kind = own.kind ?? base?.kind ?? 'command';
    const inherited = base?.kind === kind ? base : { ...base, ...kindDefaults[kind] };
    const command = own.command ?? base?.command;
    if (command === undefined) {
      issues.push({
        path: keyPath(['harnesses', name, 'command']),
        code: 'missing_key',
        message: `harness \`${name}\` needs a \`command\`: the program to run, such as \`codex\``,
      });
      continue;
    }
    const readyPattern = own.readyPattern ?? inherited.readyPattern;
    const permissionMode = own.permissionMode ?? inherited.permissionMode;
    if (permissionMode !== undefined && kind !== 'claude') {
      issues.push({
        path: keyPath(['harnesses', name, 'permissionMode']),
        code: 'invalid_value',
        message: 'only a harness of kind `claude` takes a permission mode: remove it',
      });
    }
    if (readyPattern !== undefined) {
      const problem = regexProblem(readyPattern);
      if (problem !== undefined) {
        issues.push({
          path: keyPath(['harnesses', name, 'readyPattern']),
          code: 'invalid_value',
          message: `not a valid regular expression (${problem}): fix or remove it`,
        });
      }
    }
    harnesses[name] = {
      kind,
      command,
      // The built-in's arguments belong to its program (`--norc` is bash's): another program
      // starts from none, so `shell: { command: sh }` does not run `sh --norc`.
      args: own.args ?? (command === base?.command ? base.args : []),
      agent: own.agent ?? inherited.agent ?? kindDefaults[kind].agent,
      interruptKey: own.interruptKey ?? inherited.interruptKey ?? kindDefaults[kind].interruptKey,
      ...(readyPattern === undefined ? {} : { readyPattern }),
      ...(own.mcp === undefined ? {} : { mcp: own.mcp }),
      ...(permissionMode === undefined ? {} : { permissionMode }),
    };
  }
  return { harnesses, issues };
}

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The built-in harnesses, as the schema's `harnesses.default` declares them. */
export function builtinHarnesses(): Readonly<Record<string, HarnessConfig>> {
  const declared = configSchema().properties?.['harnesses']?.default;
  return declared as Readonly<Record<string, HarnessConfig>>;
}
