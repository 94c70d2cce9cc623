/**
 * Server-Sent Events, read incrementally (the WHATWG event-stream format that
 * `GET /api/v1/stream` speaks, docs/design.md §19): feed text as it arrives, take the events a
 * blank line completed. Pure: no I/O, so a table test covers every line shape.
 */
export interface SseMessage {
  /** The last `id:` seen on or before this event, as the spec's "last event ID" works. */
  readonly id: string | undefined;
  /** `message` when the event named none. */
  readonly event: string;
  readonly data: string;
}

export interface SseParser {
  /** Appends a chunk of the stream; returns the events it completed, in order. */
  push(chunk: string): SseMessage[];
}

export function createSseParser(): SseParser {
  let buffer = '';
  let lastId: string | undefined;
  let event = '';
  let data: string[] = [];
  let sawData = false;

  const line = (text: string): SseMessage | undefined => {
    if (text === '') {
      const done = sawData
        ? { id: lastId, event: event || 'message', data: data.join('\n') }
        : undefined;
      event = '';
      data = [];
      sawData = false;
      return done;
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      data.push(value);
      sawData = true;
    } else if (field === 'id' && !value.includes('\0')) lastId = value;
    return undefined;
  };

  return {
    push(chunk) {
      buffer += chunk;
      const out: SseMessage[] = [];
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
        if (!match || (match[0] === '\r' && match.index === buffer.length - 1)) break;
        const text = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        const message = line(text);
        if (message) out.push(message);
      }
      return out;
    },
  };
}
