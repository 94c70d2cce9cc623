import type { CommandHandler } from '../command-context.js';
import { formatStatus } from '../format-status.js';

/** `the-loop status`: exit 1 when the instance is not ok, with `--json` too. */
export const runStatus: CommandHandler = async (context) => {
  const report = await (await context.loop()).status();
  if (context.json) context.printJson(report);
  else context.print(formatStatus(report));
  return report.ok ? 0 : 1;
};
