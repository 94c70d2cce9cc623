import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../../src/sdk/parse-sse.js';

/** Each row: the stream split into chunks as the network might, and the events it makes. */
const rows: { name: string; chunks: string[]; events: SseMessage[] }[] = [
  {
    name: 'one event with id, name and data',
    chunks: ['id: 7\nevent: agent.state\ndata: {"ref":"standing:a"}\n\n'],
    events: [{ id: '7', event: 'agent.state', data: '{"ref":"standing:a"}' }],
  },
  {
    name: 'an event split mid-line across chunks',
    chunks: ['id: 8\nev', 'ent: delivery.queued\nda', 'ta: {}\n', '\n'],
    events: [{ id: '8', event: 'delivery.queued', data: '{}' }],
  },
  {
    name: 'CRLF line ends, with \\r and \\n in different chunks',
    chunks: ['id: 1\r', '\nevent: x\r\ndata: {}\r\n\r', '\n'],
    events: [{ id: '1', event: 'x', data: '{}' }],
  },
  {
    name: 'comment lines (the keep-alive) make no event',
    chunks: [': keep-alive\n\n', ':\n\n'],
    events: [],
  },
  {
    name: 'no event name means `message`; the last id carries over',
    chunks: ['id: 3\ndata: a\n\ndata: b\n\n'],
    events: [
      { id: '3', event: 'message', data: 'a' },
      { id: '3', event: 'message', data: 'b' },
    ],
  },
  {
    name: 'several data lines join with newlines; no space after the colon is kept as is',
    chunks: ['data:one\ndata: two\n\n'],
    events: [{ id: undefined, event: 'message', data: 'one\ntwo' }],
  },
  {
    name: 'a block with no data line dispatches nothing, and its event name does not leak',
    chunks: ['event: lonely\n\ndata: x\n\n'],
    events: [{ id: undefined, event: 'message', data: 'x' }],
  },
  {
    name: 'an unfinished event waits for its blank line',
    chunks: ['id: 9\nevent: y\ndata: {}\n'],
    events: [],
  },
  {
    name: 'unknown fields and an id with NUL are ignored',
    chunks: ['retry: 10\nid: 2\nid: bad\0\nfoo: bar\ndata: z\n\n'],
    events: [{ id: '2', event: 'message', data: 'z' }],
  },
];

describe('createSseParser', () => {
  it.each(rows)('$name', ({ chunks, events }) => {
    const parser = createSseParser();
    expect(chunks.flatMap((chunk) => parser.push(chunk))).toEqual(events);
  });
});
