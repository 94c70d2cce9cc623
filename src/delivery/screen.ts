import type { DeliveryTag } from './delivery-tag.js';

/** How many lines at the bottom of a pane hold an agent's input box. */
const inputAreaLines = 12;

/**
 * Whether the bottom of the screen still shows our paste waiting in the input box: its tagged
 * header, or Claude Code's placeholder for a long paste. Only then may a second Enter be sent
 * (DESIGN §4 step 8: never blind — a dialog that opened meanwhile would take it as "Yes").
 */
export function showsPendingInput(screen: string, tag: DeliveryTag): boolean {
  const bottom = screen.replace(/\s+$/, '').split('\n').slice(-inputAreaLines).join('\n');
  return bottom.includes(`· ${tag}]`) || /\[Pasted text #\d+/.test(bottom);
}
