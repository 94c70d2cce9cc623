import type { CommandSpec } from './command-specs.js';

/** `usage: the-loop <synopsis>`, its continuation lines aligned under the first argument. */
export function usageLines(spec: CommandSpec): string[] {
  const [first = '', ...rest] = spec.usage.split('\n');
  const indent = ' '.repeat(`usage: the-loop ${spec.id} `.length);
  return [`usage: the-loop ${first}`, ...rest.map((line) => `${indent}${line.trim()}`)];
}
