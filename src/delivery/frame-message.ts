import type { DeliveryTag } from './delivery-tag.js';
import { LoopError } from '../errors.js';

/*
 * What a message becomes on an agent's screen: its text checked and made safe for a terminal, and
 * a header naming where it came from (its origin) and which delivery it is.
 */

/** Where a message came from; enough to frame it for the agent and to report back. */
export type Origin =
  /** the-loop itself: the boot directive and brief a session starts with. */
  | { readonly surface: 'system'; readonly actor: 'the-loop' }
  | { readonly surface: 'cli'; readonly actor: string }
  /** Another session's agent (docs/design.md §20); `actor` is the sending session. */
  | { readonly surface: 'agent'; readonly actor: string }
  | { readonly surface: 'slack'; readonly actor: string; readonly channel: string }
  | { readonly surface: 'github'; readonly actor: string; readonly workItem: string };

export type Surface = Origin['surface'];

/**
 * Removes everything a terminal could read as a control sequence: ESC and every other C0 control
 * except newline and tab, DEL, and the C1 range (some terminals read U+009B as CSI). An embedded
 * `ESC[201~` would otherwise end a bracketed paste early and turn the rest into keystrokes.
 * Carriage returns go too, so CRLF text arrives as plain lines.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitizeText(text: string): string {
  return text.replace(unsafe, '');
}

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
    case 'agent':
      return [`agent:${actor}`];
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

/** Large enough for a pasted log or file, small enough that one message cannot wedge a pane. */
export const maxMessageBytes = 512 * 1024;

/** The text of a message as it may be typed: sanitized, not empty, not over maxMessageBytes. */
export function checkedText(raw: string): string {
  const text = sanitizeText(raw);
  if (text.trim() === '') {
    throw new LoopError('empty_message', 'the message is empty; send some text');
  }
  if (Buffer.byteLength(text) > maxMessageBytes) {
    throw new LoopError(
      'payload_too_large',
      `the message is over ${maxMessageBytes / 1024} KB; send a shorter one or a file path`,
    );
  }
  return text;
}
