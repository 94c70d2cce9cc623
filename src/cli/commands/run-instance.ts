import type { CommandHandler } from '../command-context.js';
import { formatInstance, type InstanceReport } from '../format-instance.js';

/** `the-loop instance`. */
export const runInstance: CommandHandler = async (context) => {
  const report = await context.api<InstanceReport>('GET', '/api/v1/instance');
  if (context.json) context.printJson(report);
  else context.print(formatInstance(report));
  return 0;
};
