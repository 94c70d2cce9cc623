import { describe, expect, it } from 'vitest';
import { createAgentSay, type SayTarget } from '../../../src/agents/create-agent-say.js';
import { createMessageLimiter } from '../../../src/agents/message-window.js';
import type { Origin } from '../../../src/delivery/frame-message.js';
import { LoopError } from '../../../src/errors.js';

function setup(options: { limit?: number; refuse?: (name: string) => LoopError | undefined } = {}) {
  const said: { name: string; text: string; origin: Origin | undefined }[] = [];
  const events: { event: string; fields: Record<string, unknown> | undefined }[] = [];
  let n = 0;
  const standing: SayTarget = {
    async say(name, text, _actor, sayOptions) {
      const refusal = options.refuse?.(name);
      if (refusal) throw refusal;
      said.push({ name, text, origin: sayOptions?.origin });
      n += 1;
      return { outcome: 'delivered', deliveryId: `d-${n}` };
    },
  };
  const limit = options.limit ?? 2;
  const say = createAgentSay({
    standing,
    limiter: createMessageLimiter({ limit: () => limit, now: () => 1000 }),
    limit: () => limit,
    events: { record: (event, fields) => events.push({ event, fields }) },
  });
  return { say, said, events };
}

describe('createAgentSay', () => {
  it('frames the message as the sending agent and records agent.message', async () => {
    const { say, said, events } = setup();
    await expect(say('standing:alpha', 'beta', 'hello')).resolves.toEqual({
      outcome: 'delivered',
      deliveryId: 'd-1',
    });
    expect(said).toEqual([
      { name: 'beta', text: 'hello', origin: { surface: 'agent', actor: 'alpha' } },
    ]);
    expect(events).toEqual([
      {
        event: 'agent.message',
        fields: { from: 'standing:alpha', to: 'standing:beta', deliveryId: 'd-1' },
      },
    ]);
  });

  it('names a work-item sender by its ref', async () => {
    const { say, said } = setup();
    await say('github:octo/repo#12', 'beta', 'hi');
    expect(said[0]?.origin).toEqual({ surface: 'agent', actor: 'github:octo/repo#12' });
  });

  it('refuses a message to the sender itself, naming post', async () => {
    const { say, said, events } = setup();
    const refused = await say('standing:alpha', 'alpha', 'me?').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'self_message' });
    expect((refused as Error).message).toContain('post');
    expect(said).toEqual([]);
    expect(events).toEqual([]);
  });

  it('refuses past the limit with how long to wait; refused says give their place back', async () => {
    const { say, said } = setup({
      limit: 2,
      refuse: (name) =>
        name === 'gone' ? new LoopError('session_unknown', 'no such session') : undefined,
    });
    await expect(say('standing:alpha', 'gone', 'x')).rejects.toMatchObject({
      code: 'session_unknown',
    });
    await expect(say('standing:alpha', 'alpha', 'x')).rejects.toMatchObject({
      code: 'self_message',
    });
    await say('standing:alpha', 'beta', '1');
    await say('standing:alpha', 'beta', '2');
    const limited = await say('standing:alpha', 'beta', '3').catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: 'rate_limited', details: { retryAfterSeconds: 60 } });
    expect((limited as Error).message).toContain('agents.maxMessagesPerMinute');
    expect(said.map((entry) => entry.text)).toEqual(['1', '2']);
    // Another agent is not held back by this one.
    await expect(say('standing:gamma', 'beta', 'g')).resolves.toMatchObject({
      outcome: 'delivered',
    });
  });
});
