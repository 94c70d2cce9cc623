import { randomInt } from 'node:crypto';

/**
 * A delivery's tag: 4 lowercase hex characters, the last field of its header (`[cli · ana · 02be]`,
 * docs/design.md §17). Claude Code rewrites prompts (a tab becomes four spaces, several queued prompts are
 * merged into one), so a confirmation finds its delivery by tag, never by the exact text.
 */
export type DeliveryTag = string;

const tagPattern = /^[0-9a-f]{4}$/;

/** A tag unused by the session's pending deliveries. */
export function newDeliveryTag(
  taken: ReadonlySet<DeliveryTag>,
  random: () => number = () => randomInt(0x10000),
): DeliveryTag {
  if (taken.size >= 0x10000) throw new Error('every delivery tag of this session is in use');
  for (;;) {
    const tag = random().toString(16).padStart(4, '0');
    if (!taken.has(tag)) return tag;
  }
}

export function isDeliveryTag(value: string): boolean {
  return tagPattern.test(value);
}

/**
 * The tags of every header in a prompt the harness reports: one per message, several when the
 * harness merged queued messages into one turn. Only a header at the start of a line counts.
 */
export function tagsIn(prompt: string): DeliveryTag[] {
  const found: DeliveryTag[] = [];
  for (const match of prompt.matchAll(/^\[[^\]\n]* · ([0-9a-f]{4})\][ \t]*$/gm)) {
    if (match[1]) found.push(match[1]);
  }
  return found;
}
