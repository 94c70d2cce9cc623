import type { CommandHandler } from '../command-context.js';
import { sessionPath } from '../session-path.js';

/** `the-loop standing delete NAME`. */
export const runStandingDelete: CommandHandler = async (context) => {
  const answer = await context.api<unknown>('DELETE', sessionPath(context.args['name']));
  if (context.json) context.printJson(answer);
  else context.print(`deleted ${context.args['name'] ?? ''}`);
  return 0;
};
