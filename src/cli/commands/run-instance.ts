import type { CommandHandler } from '../command-context.js';
import { formatInstance } from '../format-instance.js';

/** `the-loop instance`. */
export const runInstance: CommandHandler = async (context) => {
  const report = await (await context.loop()).instance();
  if (context.json) context.printJson(report);
  else context.print(formatInstance(report));
  return 0;
};
