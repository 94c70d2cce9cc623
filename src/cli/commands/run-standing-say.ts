import type { SayAnswer } from '../../delivery/first-answer.js';
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

/** One line per outcome (DESIGN §17); each but `delivered` says what happens next. */
export function sayLine(name: string, answer: SayAnswer): string {
  const id = `delivery ${answer.deliveryId}`;
  const follow = `GET /api/v1/deliveries/${answer.deliveryId}`;
  switch (answer.outcome) {
    case 'delivered':
      return `delivered to ${name} (${id})`;
    case 'queued':
      return `queued: ${name} takes it when ${answer.reason === 'busy' ? 'its running turn ends' : 'the messages before it are in'} (${id}; ${follow} tells the rest)`;
    case 'held':
      return `held: ${heldWhy(answer.reason)} — it goes in once that is over (${id}; ${follow} tells the rest)`;
    case 'unconfirmed':
      return (
        `unconfirmed: typed into ${name}, but its harness did not confirm the prompt ` +
        `(${id}); attach to check it arrived (\`the-loop standing get ${name}\` shows how)`
      );
  }
}

function heldWhy(reason: string | undefined): string {
  switch (reason) {
    case 'permission':
      return 'the agent is waiting for a permission decision (`the-loop permissions`)';
    case 'dialog':
      return 'a dialog is open in the session (attach with tmux and answer it)';
    case 'starting':
      return 'the session is still starting';
    case 'draft':
      return 'someone is typing in the session';
    default:
      return reason ?? 'the session cannot take it yet';
  }
}
