import type { Origin } from './origin.js';

/**
 * A one-line header naming the origin, a blank line, then the text: an agent can tell who is
 * speaking and from where. Header parts are squeezed to one safe line so a crafted actor or
 * channel name cannot forge a second header.
 */
export function frameMessage(origin: Origin, text: string): string {
  return `${originHeader(origin)}\n\n${text}`;
}

export function originHeader(origin: Origin): string {
  const actor = headerPart(origin.actor) || 'unknown';
  switch (origin.surface) {
    case 'system':
      return '[the-loop]';
    case 'cli':
      return `[cli · ${actor}]`;
    case 'slack':
      return `[slack · @${actor} in #${headerPart(origin.channel)}]`;
    case 'github':
      return `[github · @${actor} on ${headerPart(origin.workItem)}]`;
  }
}

function headerPart(value: string): string {
  return value
    .replace(/[\s[\]]+/g, ' ')
    .trim()
    .slice(0, 80);
}
