import type { DeliveryResult } from '../../delivery/create-delivery-core.js';
import { chooseTextSource } from '../choose-text-source.js';
import type { CommandHandler } from '../command-context.js';
import { isInteractive } from '../is-interactive.js';
import { readInputText } from '../read-input-text.js';
import { sessionPath } from '../session-path.js';

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
  const result = await context.api<DeliveryResult>('POST', sessionPath(name, 'say'), {
    text,
    actor,
  });
  if (context.json) context.printJson(result);
  else if (result.outcome === 'delivered')
    context.print(`delivered to ${name} (delivery ${result.deliveryId})`);
  else {
    context.print(
      `unconfirmed: typed into ${name}, but its harness did not confirm the prompt ` +
        `(delivery ${result.deliveryId}); attach to check it arrived (\`the-loop standing get ${name}\` shows how)`,
    );
  }
  return 0;
};
