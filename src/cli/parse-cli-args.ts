import { isValidName, nameProblem, printable } from '../refs.js';
import { commandSpecs, globalFlags, type CommandId, type CommandSpec } from './command-specs.js';

export type FlagValues = Readonly<Record<string, string | true | readonly string[]>>;

/** `topic` is "" (the whole CLI), a group (`standing`) or a command id: what help to show. */
export type ParsedCli =
  | {
      readonly kind: 'run';
      readonly command: CommandId;
      readonly args: Readonly<Record<string, string>>;
      readonly flags: FlagValues;
    }
  | { readonly kind: 'help'; readonly topic: string }
  | { readonly kind: 'usage-error'; readonly topic: string; readonly message: string };

const groups = new Set(
  commandSpecs.flatMap((spec) => (spec.id.includes(' ') ? [spec.id.split(' ')[0] ?? ''] : [])),
);

/**
 * Reads argv into a command, its arguments and its flags, or says what is wrong. Pure: no
 * defaults from the environment are applied here. Flags may come before or after the command
 * words; `--flag=value` and `--flag value` both work; `--` ends the flags; `-` is an argument.
 */
export function parseCliArgs(argv: readonly string[]): ParsedCli {
  const words: string[] = [];
  const positionals: string[] = [];
  const flags: Record<string, string | true | string[]> = {};
  let spec: CommandSpec | undefined;
  let help = false;
  let flagsEnded = false;
  let problem: string | undefined;
  const topic = (): string => spec?.id ?? words.join(' ');

  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (!flagsEnded && token === '--') {
      flagsEnded = true;
    } else if (!flagsEnded && token.startsWith('-') && token !== '-') {
      if (token === '-h' || token === '--help') {
        help = true;
        continue;
      }
      const read = readFlag(argv, index, spec, flags);
      index = read.last;
      if (read.problem !== undefined) problem ??= read.problem;
    } else if (spec !== undefined) {
      positionals.push(token);
    } else if (token === 'help' && !help) {
      help = true;
    } else {
      const candidate = [...words, token].join(' ');
      const found = commandSpecs.find((entry) => entry.id === candidate);
      if (found === undefined && !groups.has(candidate)) {
        const where = words.length === 0 ? '' : ` in \`the-loop ${words.join(' ')}\``;
        return {
          kind: 'usage-error',
          topic: topic(),
          message: `unknown command \`${printable(token)}\`${where}`,
        };
      }
      words.push(token);
      spec = found;
    }
  }

  if (help) return { kind: 'help', topic: topic() };
  if (problem !== undefined) return { kind: 'usage-error', topic: topic(), message: problem };
  if (spec === undefined) {
    const what = words.length === 0 ? 'a command' : `a \`the-loop ${words.join(' ')}\` command`;
    return { kind: 'usage-error', topic: topic(), message: `name ${what}` };
  }
  if (flags['json'] !== undefined && !spec.json) {
    return {
      kind: 'usage-error',
      topic: spec.id,
      message: `\`the-loop ${spec.id}\` has no --json output`,
    };
  }
  return bindArgs(spec, positionals, flags);
}

/**
 * Reads the flag at `argv[index]` into `flags` (its value may be the next token). Returns the
 * index of the last token it used, and what was wrong, if anything.
 */
function readFlag(
  argv: readonly string[],
  index: number,
  spec: CommandSpec | undefined,
  flags: Record<string, string | true | string[]>,
): { last: number; problem?: string } {
  const token = argv[index] ?? '';
  const equals = token.indexOf('=');
  const flagName = token.startsWith('--') ? token.slice(2, equals === -1 ? undefined : equals) : '';
  const flag = [...globalFlags, ...(spec?.flags ?? [])].find((each) => each.name === flagName);
  if (flag === undefined) {
    const where = spec ? ` for \`the-loop ${spec.id}\`` : '';
    return { last: index, problem: `unknown option \`${printable(token)}\`${where}` };
  }
  if (flags[flag.name] !== undefined && !flag.repeatable) {
    return { last: index, problem: `--${flag.name} is given twice` };
  }
  const set = (value: string): void => {
    const previous = flags[flag.name];
    flags[flag.name] = flag.repeatable
      ? [...(Array.isArray(previous) ? previous : []), value]
      : value;
  };
  if (flag.value === undefined) {
    if (equals !== -1) return { last: index, problem: `--${flag.name} takes no value` };
    flags[flag.name] = true;
    return { last: index };
  }
  if (equals !== -1) {
    set(token.slice(equals + 1));
    return { last: index };
  }
  const value = argv[index + 1];
  if (value === undefined) {
    return { last: index, problem: `--${flag.name} needs a value (${flag.value})` };
  }
  set(value);
  return { last: index + 1 };
}

function bindArgs(spec: CommandSpec, positionals: readonly string[], flags: FlagValues): ParsedCli {
  const args: Record<string, string> = {};
  const refuse = (message: string): ParsedCli => ({ kind: 'usage-error', topic: spec.id, message });
  for (const [index, arg] of spec.args.entries()) {
    const value = positionals[index];
    if (value === undefined) {
      if (arg.optional) break;
      return refuse(`missing ${arg.key.toUpperCase()}`);
    }
    if (arg.kind === 'name' && !isValidName(value)) return refuse(nameProblem(value));
    args[arg.key] = value;
  }
  const extra = positionals[spec.args.length];
  if (extra !== undefined) {
    const hint = spec.args.some((arg) => arg.kind === 'text')
      ? ' (quote text that has spaces)'
      : '';
    return refuse(`unexpected argument \`${printable(extra)}\`${hint}`);
  }
  return { kind: 'run', command: spec.id, args, flags };
}
