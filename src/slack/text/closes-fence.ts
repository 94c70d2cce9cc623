import type { Fence } from './read-fence.js';

/** Whether a line closes an open fence: the same character, at least as many, nothing after. */
export function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t\r]*$/.exec(line);
  const run = match?.[1];
  return run !== undefined && run.startsWith(fence.char) && run.length >= fence.length;
}
