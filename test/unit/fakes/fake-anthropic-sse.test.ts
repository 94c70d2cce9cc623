import { describe, expect, it } from 'vitest';
import { parseSse } from '../../fakes/fake-anthropic/parse-sse.js';
import { text, toolUse } from '../../fakes/fake-anthropic/scripted-answer.js';
import { frameSse, messageBody, sseEvents } from '../../fakes/fake-anthropic/sse-events.js';

const ids = { messageId: 'msg_1', toolUseId: 'toolu_1', model: 'claude-test', inputTokens: 7 };

const names = (answer: Parameters<typeof sseEvents>[0]) =>
  sseEvents(answer, ids).map((event) => event.event);

function deltas(events: ReturnType<typeof sseEvents>, index: number, field: string): string {
  return events
    .filter((event) => event.event === 'content_block_delta' && event.data.index === index)
    .map((event) => (event.data.delta as Record<string, string>)[field])
    .join('');
}

describe('the fake Messages API stream', () => {
  it('frames each event as `event:`, `data:` and a blank line, and reads back the same', () => {
    const events = sseEvents(text('hello'), ids);
    const wire = events.map(frameSse).join('');
    expect(frameSse(events[0]!)).toMatch(/^event: message_start\ndata: \{.*\}\n\n$/);
    expect(wire.split('\n\n').filter((block) => block !== '')).toHaveLength(events.length);
    expect(parseSse(wire)).toEqual(events);
  });

  it.each([
    {
      name: 'text',
      answer: text('Hi.'),
      order: [
        'message_start',
        'ping',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    },
    {
      name: 'tool_use without preamble',
      answer: toolUse('Bash', { command: 'echo hi' }),
      order: [
        'message_start',
        'ping',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    },
  ])('sends the events in the API order: $name', ({ answer, order }) => {
    expect(names(answer)).toEqual(order);
  });

  it('streams long text in pieces that join to the whole, without splitting a code point', () => {
    const long = `${'ünïcödé 😀 '.repeat(40)}end`;
    const events = sseEvents(text(long), ids);
    expect(events.filter((event) => event.event === 'content_block_delta').length).toBeGreaterThan(
      5,
    );
    expect(deltas(events, 0, 'text')).toBe(long);
    for (const event of events.filter((entry) => entry.event === 'content_block_delta')) {
      const piece = (event.data.delta as Record<string, string>).text ?? '';
      // A lone surrogate would mean a piece ended inside a pair.
      expect(piece).not.toMatch(
        /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      );
    }
  });

  it('a tool_use block carries its input as partial JSON, after a text preamble, and stops for the tool', () => {
    const input = { command: 'echo "a long command line" && echo done', description: 'Say hi' };
    const events = sseEvents(toolUse('Bash', input, { preamble: 'Running it.' }), ids);
    const starts = events.filter((event) => event.event === 'content_block_start');
    expect(starts.map((event) => event.data.content_block)).toEqual([
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} },
    ]);
    expect(deltas(events, 0, 'text')).toBe('Running it.');
    expect(JSON.parse(deltas(events, 1, 'partial_json'))).toEqual(input);
    const stop = events.find((event) => event.event === 'message_delta');
    expect(stop?.data.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
  });

  it('message_start names the message, model and input usage; a text turn ends with end_turn', () => {
    const events = sseEvents(text('x'), ids);
    expect(events[0]?.data.message).toMatchObject({
      id: 'msg_1',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 7 },
    });
    expect(events.at(-2)?.data.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
    expect(events.at(-1)?.data).toEqual({ type: 'message_stop' });
  });

  it('the non-streamed body holds the same content', () => {
    expect(messageBody(toolUse('Write', { file_path: '/x', content: 'y' }), ids)).toMatchObject({
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: '/x' } }],
      stop_reason: 'tool_use',
    });
    expect(messageBody(text('plain'), ids)).toMatchObject({
      content: [{ type: 'text', text: 'plain' }],
      stop_reason: 'end_turn',
    });
  });
});
