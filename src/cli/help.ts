// The help and usage text, read from the command table (command-specs.ts).
import { commandSpecs, globalFlags, type CommandSpec, type FlagSpec } from './command-specs.js';

const exitCodes = 'Exit codes: 0 ok, 1 refused, not found or not ok, 2 usage or config error.';
const serveNote =
  'Every command except serve, config check, manifest, hook, doctor and init talks to a running\n' +
  '`the-loop serve`; when it is not running they say so and exit 1.\n' +
  '`the-loop --version` prints the version.';

/** The text `--help` prints for the whole CLI, a command group, or one command. */
export function formatHelp(topic: string): string {
  const spec = commandSpecs.find((entry) => entry.id === topic);
  if (spec) return commandHelp(spec);
  const listed = commandSpecs.filter((entry) => topic === '' || entry.id.startsWith(`${topic} `));
  const width = Math.max(...listed.map((entry) => synopsis(entry).length)) + 2;
  const lines = [
    topic === ''
      ? 'the-loop: keeps AI coding agents running in tmux and lets people talk to them'
      : `the-loop ${topic}`,
    '',
    `usage: the-loop ${topic === '' ? 'COMMAND' : `${topic} COMMAND`} [options]`,
    '',
    'commands:',
    ...listed.map((entry) => `  ${synopsis(entry).padEnd(width)}${entry.summary}`),
    '',
    'options for every command:',
    ...flagLines(globalFlags),
    '',
    exitCodes,
    serveNote,
  ];
  return lines.join('\n');
}

function commandHelp(spec: CommandSpec): string {
  const common = globalFlags.filter((flag) => flag.name !== 'json' || spec.json);
  return [
    ...usageLines(spec),
    '',
    spec.summary,
    ...(spec.notes ?? []),
    '',
    'options:',
    ...flagLines([...spec.flags, ...common]),
    '',
    exitCodes,
  ].join('\n');
}

function synopsis(spec: CommandSpec): string {
  const args = spec.args.map((arg) => {
    const label = arg.kind === 'text' ? 'TEXT | -' : arg.key.toUpperCase();
    return arg.optional ? `[${label}]` : label;
  });
  return [spec.id, ...args].join(' ');
}

function flagLines(flags: readonly FlagSpec[]): string[] {
  const labels = flags.map((flag) => {
    const base = flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
    return flag.name === 'help' ? `${base}, -h` : base;
  });
  const width = Math.max(...labels.map((label) => label.length)) + 2;
  return flags.map((flag, index) => `  ${(labels[index] ?? '').padEnd(width)}${flag.help}`);
}

/**
 * The synopsis shown under a usage error: the command's own line, a group's commands, or every
 * command. Help for the topic is one `--help` away, and the last line says so.
 */
export function formatUsage(topic: string): string {
  const spec = commandSpecs.find((entry) => entry.id === topic);
  const lines = spec
    ? usageLines(spec)
    : [
        'usage:',
        ...commandSpecs
          .filter((entry) => topic === '' || entry.id.startsWith(`${topic} `))
          .map((entry) => `  the-loop ${entry.usage.split('\n')[0] ?? ''}`),
      ];
  const more = topic === '' ? 'the-loop --help' : `the-loop ${topic} --help`;
  return [...lines, `(\`${more}\` says more)`].join('\n');
}

/** `usage: the-loop <synopsis>`, its continuation lines aligned under the first argument. */
export function usageLines(spec: CommandSpec): string[] {
  const [first = '', ...rest] = spec.usage.split('\n');
  const indent = ' '.repeat(`usage: the-loop ${spec.id} `.length);
  return [`usage: the-loop ${first}`, ...rest.map((line) => `${indent}${line.trim()}`)];
}
