import { sayLine } from '../../delivery/first-answer.js';
import { chooseTextSource } from '../choose-text-source.js';
import type { CommandHandler } from '../command-context.js';
import { isInteractive } from '../is-interactive.js';
import { readInputText } from '../read-input-text.js';

/** `the-loop standing say NAME [TEXT | -]`: through the delivery core, framed as `[cli · $USER]`. */
export const runStandingSay: CommandHandler = async (context) => {
  const name = context.args['name'] ?? '';
  const source = chooseTextSource({
    text: context.args['text'],
    stdinIsTerminal: isInteractive(context.io.stdin),
  });
  if (source.kind === 'usage-error') return context.usageError(source.message);
  const text = await readInputText(source, context.io);
  const actor = context.io.env['USER'] || 'operator';
  const result = await (await context.loop()).standing.say(name, text, { actor });
  if (context.json) context.printJson(result);
  else context.print(sayLine(name, result));
  return 0;
};
