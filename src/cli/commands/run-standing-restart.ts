import { applyVerb } from '../apply-verb.js';
import type { CommandHandler } from '../command-context.js';

/** `the-loop standing restart NAME`. */
export const runStandingRestart: CommandHandler = async (context) =>
  applyVerb(context, 'restart', [context.args['name'] ?? '']);
