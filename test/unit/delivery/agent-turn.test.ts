import { describe, expect, it } from 'vitest';
import type { AgentSignal, AgentState } from '../../../src/delivery/agent-state-machine.js';
import {
  nextAgentTurn,
  noTurn,
  turnHook,
  type AgentTurn,
  type TurnHook,
} from '../../../src/delivery/agent-turn.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';

const prompt = (promptId?: string): TurnHook => ({
  event: 'UserPromptSubmit',
  ...(promptId ? { promptId } : {}),
});
const stop = (promptId?: string): TurnHook => ({
  event: 'Stop',
  ...(promptId ? { promptId } : {}),
});
const tool = (promptId?: string): TurnHook => ({
  event: 'PostToolUse',
  ...(promptId ? { promptId } : {}),
});
const running = (promptId: string): AgentTurn => ({ promptId, queued: false, merged: false });
const queuedIn = (promptId: string): AgentTurn => ({ promptId, queued: true, merged: false });
const merged: AgentTurn = { queued: false, merged: true };

describe('nextAgentTurn (docs/design.md §13, §23; test/real/FINDINGS.md (h))', () => {
  it.each<[string, AgentState, AgentTurn, TurnHook, AgentTurn, AgentSignal | undefined]>([
    ['a prompt starts a turn', 'idle', noTurn, prompt('p1'), running('p1'), 'prompt'],
    ['a prompt with no prompt_id starts one too', 'idle', noTurn, prompt(), noTurn, 'prompt'],
    // 2.1.332: UserPromptSubmit at once, with the running turn's prompt_id.
    [
      'a prompt into the running turn is queued',
      'busy',
      running('p1'),
      prompt('p1'),
      queuedIn('p1'),
      'prompt',
    ],
    [
      '… also while a permission question is open',
      'waiting',
      running('p1'),
      prompt('p1'),
      queuedIn('p1'),
      'prompt',
    ],
    ['a second prompt into it', 'busy', queuedIn('p1'), prompt('p1'), queuedIn('p1'), 'prompt'],
    // 2.1.197: every prompt has its own prompt_id, so none is "into" a turn.
    [
      'a prompt with its own id is a turn of its own',
      'busy',
      running('p1'),
      prompt('p2'),
      running('p2'),
      'prompt',
    ],
    [
      '… and drops a queued mark (a person interrupted in the terminal)',
      'busy',
      queuedIn('p1'),
      prompt('p2'),
      running('p2'),
      'prompt',
    ],
    ['a prompt with no id is never into a turn', 'busy', running('p1'), prompt(), noTurn, 'prompt'],
    [
      'the same id after the turn ended starts a new one',
      'idle',
      running('p1'),
      prompt('p1'),
      running('p1'),
      'prompt',
    ],
    // Injected: a tool call after the prompt means another request, which takes it in.
    [
      'a tool call takes the queued prompt in',
      'busy',
      queuedIn('p1'),
      tool('p1'),
      running('p1'),
      undefined,
    ],
    [
      'PreToolUse does as well',
      'busy',
      queuedIn('p1'),
      { event: 'PreToolUse', promptId: 'p1' },
      running('p1'),
      undefined,
    ],
    [
      'a tool call with nothing queued changes nothing',
      'busy',
      running('p1'),
      tool('p1'),
      running('p1'),
      undefined,
    ],
    // Queued: the Stop of the held turn, then a turn of the queued prompts that no hook starts.
    [
      'the Stop with a prompt queued keeps the turn going',
      'busy',
      queuedIn('p1'),
      stop('p1'),
      { ...merged, endedPromptId: 'p1' },
      'stop-queued',
    ],
    [
      "a queued prompt's hook heard after that Stop is part of the merged turn, not queued behind it",
      'busy',
      { ...merged, endedPromptId: 'p1' },
      prompt('p1'),
      { ...merged, endedPromptId: 'p1' },
      'prompt',
    ],
    [
      'a prompt with a new id during that merged turn is queued into it',
      'busy',
      { ...merged, endedPromptId: 'p1' },
      prompt('m1'),
      { promptId: 'm1', queued: true, merged: true },
      'prompt',
    ],
    ['the Stop with nothing queued ends it', 'busy', running('p1'), stop('p1'), noTurn, 'stop'],
    [
      'the merged turn learns its id from a tool call',
      'busy',
      merged,
      tool('m1'),
      { promptId: 'm1', queued: false, merged: true },
      undefined,
    ],
    ['its Stop ends it', 'busy', merged, stop('m1'), noTurn, 'stop'],
    [
      'a prompt during a merged turn of unknown id is queued into it',
      'busy',
      merged,
      prompt('m1'),
      { promptId: 'm1', queued: true, merged: true },
      'prompt',
    ],
    [
      "a prompt with the merged turn's known id is queued into it",
      'busy',
      { promptId: 'm1', queued: false, merged: true },
      prompt('m1'),
      { promptId: 'm1', queued: true, merged: true },
      'prompt',
    ],
    [
      'a prompt with another id during a merged turn is a turn of its own',
      'busy',
      { promptId: 'm1', queued: false, merged: true },
      prompt('p9'),
      running('p9'),
      'prompt',
    ],
    [
      'a queued prompt behind a merged turn keeps it going once more',
      'busy',
      { promptId: 'm1', queued: true, merged: true },
      stop('m1'),
      { ...merged, endedPromptId: 'm1' },
      'stop-queued',
    ],
  ])('%s', (_what, state, turn, hook, next, signal) => {
    const result = nextAgentTurn(state, turn, hook);
    expect(result.turn).toEqual(next);
    expect(result.signal).toBe(signal);
  });

  it.each<[Record<string, unknown>, TurnHook]>([
    [{ prompt_id: 'abc' }, { event: 'Stop', promptId: 'abc' }],
    [{}, { event: 'Stop' }],
    [{ prompt_id: '' }, { event: 'Stop' }],
    [{ prompt_id: 7 }, { event: 'Stop' }],
  ])('turnHook reads prompt_id from %j', (payload, hook) => {
    expect(turnHook('Stop', payload)).toEqual(hook);
  });
});

describe('agent states through the hooks of each version', () => {
  const run = (hooks: ReadonlyArray<TurnHook | 'escape'>): string[] => {
    const states = createAgentStates();
    states.spawned('t');
    states.ready('t');
    return hooks.map((hook) => {
      if (hook === 'escape') states.signal('t', 'stop');
      else states.hook('t', hook);
      return states.state('t') ?? 'unknown';
    });
  };

  it('2.1.332, two prompts queued behind a slow turn: busy until the merged turn ends', () => {
    expect(run([prompt('s'), prompt('s'), prompt('s'), stop('s'), stop('m')])).toEqual([
      'busy',
      'busy',
      'busy',
      'busy',
      'idle',
    ]);
  });

  it("2.1.332, a queued prompt's hook heard only after the slow turn's Stop: idle after the merged turn", () => {
    expect(run([prompt('s'), prompt('s'), stop('s'), prompt('s'), stop('m')])).toEqual([
      'busy',
      'busy',
      'busy',
      'busy',
      'idle',
    ]);
  });

  it("2.1.332, a prompt injected into a tool turn: idle at that turn's Stop", () => {
    const hooks: TurnHook[] = [
      prompt('r'),
      prompt('r'),
      { event: 'PreToolUse', promptId: 'r' },
      tool('r'),
      stop('r'),
    ];
    expect(run(hooks).at(-1)).toBe('idle');
  });

  it('2.1.197, the same queued prompts: busy, idle at the Stop, busy, idle (unchanged)', () => {
    expect(run([prompt('s'), stop('s'), prompt('a'), prompt('b'), stop('b')])).toEqual([
      'busy',
      'idle',
      'busy',
      'busy',
      'idle',
    ]);
  });

  it('2.1.197, an injected prompt has no hook of its own: idle at the Stop', () => {
    expect(
      run([prompt('r'), { event: 'PreToolUse', promptId: 'r' }, tool('r'), stop('r')]).at(-1),
    ).toBe('idle');
  });

  it('an interrupt the-loop sends ends the turn and forgets what was queued', () => {
    expect(run([prompt('s'), prompt('s'), 'escape', prompt('n'), stop('n')])).toEqual([
      'busy',
      'busy',
      'idle',
      'busy',
      'idle',
    ]);
  });
});
