import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSse } from '../../fakes/fake-anthropic/parse-sse.js';
import { text, toolUse } from '../../fakes/fake-anthropic/scripted-answer.js';
import {
  startFakeAnthropic,
  type FakeAnthropic,
} from '../../fakes/fake-anthropic/start-fake-anthropic.js';

/** A main turn as Claude Code sends it: streamed, with tools on offer. */
const turn = (prompt: string) => ({
  model: 'claude-opus-4-8',
  stream: true,
  max_tokens: 64_000,
  tools: [{ name: 'Bash', input_schema: { type: 'object' } }],
  system: [{ type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." }],
  messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
});

/** The session-title side request Claude Code 2.1.197 sends after a first prompt. */
const titleRequest = {
  model: 'claude-haiku-4-5-20251001',
  stream: true,
  tools: [],
  system: [{ type: 'text', text: 'Generate a concise, sentence-case title (3-7 words)…' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: '<session>\nhi\n</session>' }] }],
};

let fake: FakeAnthropic;

beforeEach(async () => {
  fake = await startFakeAnthropic();
});

afterEach(async () => {
  await fake.close();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}

const streamedText = (wire: string) =>
  parseSse(wire)
    .filter((event) => event.event === 'content_block_delta')
    .map((event) => (event.data.delta as Record<string, string>).text ?? '')
    .join('');

describe('the fake Anthropic Messages API over HTTP', () => {
  it('answers turns from the script in order, and side requests without using it', async () => {
    fake.script(text('first'), text('second'));
    const one = await post('/v1/messages', turn('hello'));
    expect(one.status).toBe(200);
    expect(one.type).toBe('text/event-stream');
    expect(streamedText(one.body)).toBe('first');

    const title = await post('/v1/messages', titleRequest);
    expect(JSON.parse(streamedText(title.body))).toEqual({ title: 'Fake session' });
    const count = await post('/v1/messages/count_tokens', turn('x'));
    expect(JSON.parse(count.body)).toEqual({ input_tokens: expect.any(Number) });

    expect(streamedText((await post('/v1/messages', turn('again'))).body)).toBe('second');
    expect(streamedText((await post('/v1/messages', turn('unscripted'))).body)).toBe('OK.');
    expect(fake.requests.map((request) => request.kind)).toEqual([
      'turn',
      'side',
      'count_tokens',
      'turn',
      'turn',
    ]);
    expect(fake.requests[0]?.headers['x-api-key']).toBe('sk-test');
  });

  it('holds a slow turn after message_start until the test lets it go', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.script(text('finally', { until: gate }));
    const chunks: string[] = [];
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify(turn('slow')),
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    chunks.push(Buffer.from(first.value ?? []).toString());
    expect(chunks.join('')).toContain('event: message_start');
    expect(chunks.join('')).not.toContain('content_block_start');
    release();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks.push(Buffer.from(next.value).toString());
    }
    expect(streamedText(chunks.join(''))).toBe('finally');
  });

  it('streams a tool_use that stops for the tool, and lets a test await the prompt', async () => {
    fake.script(toolUse('Bash', { command: 'touch x' }));
    const waiting = fake.waitForRequest((request) =>
      JSON.stringify(request.body).includes('run it'),
    );
    const answer = parseSse((await post('/v1/messages', turn('run it'))).body);
    expect(answer.find((event) => event.event === 'message_delta')?.data.delta).toMatchObject({
      stop_reason: 'tool_use',
    });
    expect((await waiting).kind).toBe('turn');
  });

  it('answers the base-URL probe and refuses unknown paths', async () => {
    expect((await fetch(fake.url, { method: 'HEAD' })).status).toBe(200);
    expect((await post('/v1/other', {})).status).toBe(404);
  });
});
