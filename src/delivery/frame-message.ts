import type { DeliveryTag } from './delivery-tag.js';
import type { Origin } from './origin.js';

/**
 * A one-line header naming the origin and the delivery's tag, a blank line, then the text: an
 * agent can tell who is speaking and from where, and the-loop can tell which delivery a prompt
 * was. Header parts are squeezed to one safe line so a crafted actor or channel name cannot forge
 * a second header.
 */
export function frameMessage(origin: Origin, text: string, tag: DeliveryTag): string {
  return `${originHeader(origin, tag)}\n\n${text}`;
}

export function originHeader(origin: Origin, tag: DeliveryTag): string {
  return `[${originParts(origin).join(' · ')} · ${tag}]`;
}

function originParts(origin: Origin): string[] {
  const actor = headerPart(origin.actor) || 'unknown';
  switch (origin.surface) {
    case 'system':
      return ['the-loop'];
    case 'cli':
      return ['cli', actor];
    case 'slack':
      return ['slack', `@${actor} in #${headerPart(origin.channel)}`];
    case 'github':
      return ['github', `@${actor} on ${headerPart(origin.workItem)}`];
  }
}

function headerPart(value: string): string {
  return value
    .replace(/[\s[\]·]+/g, ' ')
    .trim()
    .slice(0, 80);
}
