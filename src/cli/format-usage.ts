import { commandSpecs } from './command-specs.js';
import { usageLines } from './usage-lines.js';

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
