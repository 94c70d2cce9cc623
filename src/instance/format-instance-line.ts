import type { InstanceConfig } from '../config/types.js';

/** The instance line of `the-loop status`: `instance: laptop-b · scope addressed (2 declared work items)`. */
export function formatInstanceLine(instance: InstanceConfig): string {
  const name = instance.name === '' ? '(unnamed)' : instance.name;
  const count = instance.scope.workItems.length;
  const declared = count === 0 ? '' : ` (${count} declared work ${count === 1 ? 'item' : 'items'})`;
  return `instance: ${name} · scope ${instance.scope.mode}${declared}`;
}
