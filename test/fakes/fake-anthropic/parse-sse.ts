import type { SseEvent } from './sse-events.js';

/**
 * Reads a server-sent event stream the way an SSE client does: events end at a blank line, `event:`
 * names one, `data:` lines are joined with newlines. Tests use it to check the fake's wire format.
 */
export function parseSse(stream: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of stream.split('\n\n')) {
    if (block.trim() === '') continue;
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice('event: '.length);
      else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
      else throw new Error(`not an SSE field line: ${JSON.stringify(line)}`);
    }
    events.push({ event: name, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return events;
}
