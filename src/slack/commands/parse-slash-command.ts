import { isValidName, nameProblem } from '../../refs.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { readOption } from './read-option.js';
import { slashSubcommands, type SlashSubcommand } from './slash-subcommands.js';

export type SlashCommand =
  | {
      readonly verb: 'create';
      readonly name: string;
      readonly harness?: string;
      readonly cwd?: string;
      readonly brief?: string;
    }
  | { readonly verb: 'delete' | 'start' | 'stop' | 'restart'; readonly name: string }
  | { readonly verb: 'list' }
  | { readonly verb: 'status' }
  | { readonly verb: 'instances' }
  | { readonly verb: 'help' }
  | { readonly verb: 'usage-error'; readonly message: string };

type Verb = SlashSubcommand['verb'];

/**
 * The text after `/loop` (decoded with decodeSlackText first) → what to do (docs/design.md §6). Names are
 * validated here, since they come from Slack. Never throws: bad input is a `usage-error` whose
 * message is Slack mrkdwn naming the right usage; `command` is the configured slash command.
 */
export function parseSlashCommand(text: string, command = '/loop'): SlashCommand {
  const slash = slashName(command);
  const verbMatch = /^\s*(\S+)/.exec(text);
  if (!verbMatch) return { verb: 'help' };
  const given = verbMatch[1] ?? '';
  const spec = slashSubcommands.find((s) => s.verb === given.toLowerCase());
  if (!spec) {
    const verbs = slashSubcommands.map((s) => `\`${s.verb}\``).join(', ');
    return usageError(
      `\`${shown(given)}\` is not a subcommand of \`${slash}\`: use one of ${verbs}`,
    );
  }
  const after = verbMatch[0].length;
  const words = text
    .slice(after)
    .split(/\s+/)
    .filter((word) => word !== '');
  const usage = `usage: \`${slash} ${spec.verb}${spec.args ? ` ${spec.args}` : ''}\``;
  switch (spec.verb) {
    case 'help':
      return { verb: 'help' };
    case 'list':
    case 'status':
    case 'instances':
      return words.length === 0
        ? { verb: spec.verb }
        : usageError(`\`${slash} ${spec.verb}\` takes nothing after it; ${usage}`);
    case 'create':
      return parseCreate(text, after, usage);
    default:
      return parseNamed(spec.verb, words, usage);
  }
}

/** The help text for the configured command: every subcommand with one line each. */
export function slashUsage(command: string): string {
  const slash = slashName(command);
  const lines = slashSubcommands.map(
    (s) => `• \`${slash} ${s.verb}${s.args ? ` ${s.args}` : ''}\` — ${s.summary}`,
  );
  return escapeMrkdwn(
    [
      `*\`${slash}\` runs the-loop's standing sessions*`,
      ...lines,
      'A name is 1–40 characters of a–z, 0–9 and -. Harness arguments come only from the config.',
      "In a session's thread, `!help` lists the commands you can type there.",
    ].join('\n'),
  );
}

function parseNamed(
  verb: Exclude<Verb, 'create' | 'list' | 'status' | 'help'>,
  words: string[],
  usage: string,
): SlashCommand {
  const [name, ...extra] = words;
  if (name === undefined) return usageError(`\`${verb}\` needs a session name; ${usage}`);
  if (extra.length > 0) return usageError(`\`${verb}\` takes one name; ${usage}`);
  if (!isValidName(name)) return usageError(`${nameProblem(shown(name))}; ${usage}`);
  return { verb, name };
}

function parseCreate(text: string, from: number, usage: string): SlashCommand {
  const nameMatch = /^\s*(\S+)/.exec(text.slice(from));
  const name = nameMatch?.[1];
  if (name === undefined || readOption(name, 0).kind !== 'none') {
    return usageError(`\`create\` needs a session name first; ${usage}`);
  }
  if (!isValidName(name)) return usageError(`${nameProblem(shown(name))}; ${usage}`);
  const options: Record<string, string> = {};
  let at = from + (nameMatch?.[0].length ?? 0);
  for (;;) {
    at += /^\s*/.exec(text.slice(at))?.[0].length ?? 0;
    const read = readOption(text, at);
    if (read.kind === 'none') break;
    if (read.kind === 'bad') return usageError(`${read.problem}; ${usage}`);
    const problem = optionProblem(read.key, read.value, options);
    if (problem) return usageError(`${problem}; ${usage}`);
    options[read.key] = read.value;
    at = read.end;
  }
  if (/^--?[A-Za-z]/.test(text.slice(at))) {
    return usageError(
      `options are written \`harness=<h>\` and \`cwd=<dir>\`, before the brief; ${usage}`,
    );
  }
  const brief = text.slice(at).trim();
  return {
    verb: 'create',
    name,
    ...(options['harness'] !== undefined ? { harness: options['harness'] } : {}),
    ...(options['cwd'] !== undefined ? { cwd: options['cwd'] } : {}),
    ...(brief !== '' ? { brief } : {}),
  };
}

function optionProblem(
  key: string,
  value: string,
  seen: Record<string, string>,
): string | undefined {
  if (key !== 'harness' && key !== 'cwd') {
    return (
      `\`${shown(key)}=\` is not an option of \`create\`, which takes \`harness=\` and \`cwd=\`; ` +
      'harness arguments can only come from the config'
    );
  }
  if (Object.hasOwn(seen, key)) return `\`${key}=\` is given twice`;
  if (value === '') return `\`${key}=\` needs a value`;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(value)) return `\`${key}=\` must not contain control characters`;
  return undefined;
}

function usageError(message: string): SlashCommand {
  return { verb: 'usage-error', message: escapeMrkdwn(message) };
}

/** A piece of the input, safe inside a code span of the reply: short, visible, no backticks. */
function shown(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return short.replace(/`/g, "'");
}

function slashName(command: string): string {
  return command.startsWith('/') ? command : `/${command}`;
}
