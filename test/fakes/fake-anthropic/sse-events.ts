import type { ScriptedAnswer } from './scripted-answer.js';

/** One server-sent event of the Messages API stream: the `event:` name and its JSON `data`. */
export interface SseEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface MessageIds {
  readonly messageId: string;
  readonly toolUseId: string;
  readonly model: string;
  readonly inputTokens: number;
}

/** Text is streamed in pieces of this many characters, like the real API's small deltas. */
const TEXT_CHUNK = 24;

/**
 * The events of one streamed answer, in the order the real API sends them: message_start, a ping,
 * for each content block content_block_start / _delta… / _stop, then message_delta (stop reason and
 * output usage) and message_stop. The delay of a slow turn falls after the first two events.
 */
export function sseEvents(answer: ScriptedAnswer, ids: MessageIds): SseEvent[] {
  const blocks: Array<{ start: Record<string, unknown>; deltas: Record<string, unknown>[] }> = [];
  const preamble = answer.kind === 'text' ? answer.text : answer.preamble;
  if (preamble !== undefined && preamble !== '') {
    blocks.push({
      start: { type: 'text', text: '' },
      deltas: chunks(preamble, TEXT_CHUNK).map((piece) => ({ type: 'text_delta', text: piece })),
    });
  }
  if (answer.kind === 'tool_use') {
    const json = JSON.stringify(answer.input);
    blocks.push({
      start: { type: 'tool_use', id: ids.toolUseId, name: answer.name, input: {} },
      deltas: chunks(json, TEXT_CHUNK).map((piece) => ({
        type: 'input_json_delta',
        partial_json: piece,
      })),
    });
  }
  const outputTokens = Math.max(1, Math.ceil((preamble?.length ?? 0) / 4) + blocks.length);
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: ids.messageId,
          type: 'message',
          role: 'assistant',
          model: ids.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: ids.inputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 1,
          },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  blocks.forEach((block, index) => {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: block.start },
    });
    for (const delta of block.deltas) {
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: {
          stop_reason: answer.kind === 'tool_use' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
        },
        usage: { output_tokens: outputTokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

/** The wire form of one event: `event: <name>`, `data: <json>`, then a blank line. */
export function frameSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The same answer as one non-streamed Messages API response body. */
export function messageBody(answer: ScriptedAnswer, ids: MessageIds): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  const preamble = answer.kind === 'text' ? answer.text : answer.preamble;
  if (preamble !== undefined && preamble !== '') content.push({ type: 'text', text: preamble });
  if (answer.kind === 'tool_use') {
    content.push({ type: 'tool_use', id: ids.toolUseId, name: answer.name, input: answer.input });
  }
  return {
    id: ids.messageId,
    type: 'message',
    role: 'assistant',
    model: ids.model,
    content,
    stop_reason: answer.kind === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: ids.inputTokens, output_tokens: Math.max(1, content.length) },
  };
}

function chunks(value: string, size: number): string[] {
  const pieces: string[] = [];
  // Split on code points, so a delta never ends inside a surrogate pair.
  const points = Array.from(value);
  for (let at = 0; at < points.length; at += size)
    pieces.push(points.slice(at, at + size).join(''));
  return pieces;
}
