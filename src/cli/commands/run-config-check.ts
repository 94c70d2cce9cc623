import { formatConfigCheck } from '../../config/format-config.js';
import type { CommandHandler } from '../command-context.js';

/** `the-loop config check`: a refused config throws ConfigError, which main prints with exit 2. */
export const runConfigCheck: CommandHandler = async (context) => {
  const config = await context.loadConfig();
  if (context.json) context.printJson(config);
  else context.print(formatConfigCheck(config));
  return 0;
};
