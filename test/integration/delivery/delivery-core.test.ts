import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';
import { createDeliveryCore } from '../../../src/delivery/create-delivery-core.js';
import type { DeliveryCore, DeliveryTarget } from '../../../src/delivery/delivery-request.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { LoopError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { createTmuxDriver } from '../../../src/tmux/create-tmux-driver.js';
import type { TmuxDriver } from '../../../src/tmux/tmux-driver.js';
import { eventually } from '../../helpers/eventually.js';
import { createPrivateTmux, type PrivateTmux } from '../../helpers/private-tmux.js';
import { spawnFakeAgent, type FakeAgentSession } from '../../helpers/spawn-fake-agent.js';
import { untagged } from '../../helpers/agent-prompts.js';

const owner = 'owner-delivery';
const cli = { surface: 'cli', actor: 'ana' } as const;

describe('delivery core with real tmux and the fake agent', () => {
  let server: PrivateTmux;
  let driver: TmuxDriver;
  let core: DeliveryCore;
  let events: Array<{ event: string; fields: Record<string, unknown> }>;
  let targets: Map<string, DeliveryTarget>;

  beforeEach(() => {
    server = createPrivateTmux();
    driver = createTmuxDriver({ runner: server.runner, logger: silentLogger() });
    events = [];
    targets = new Map();
    core = createDeliveryCore({
      driver,
      resolve: async (ref) => {
        // Resolving takes uneven time, as reading records does; order must not depend on it.
        await delay(Math.random() * 3);
        const target = targets.get(ref);
        if (!target) throw new LoopError('session_unknown', `no session ${ref}`);
        return target;
      },
      states: createAgentStates(),
      confirmations: createConfirmationTracker(),
      events: { record: (event, fields = {}) => events.push({ event, fields }) },
      logger: silentLogger(),
      timing: { readyTimeoutMs: 5_000, submitDelayMs: 5, confirmTimeoutMs: 1_000 },
    });
  });
  afterEach(async () => {
    await server.dispose();
  });

  const agentSession = async (name: string, agent = false): Promise<FakeAgentSession> => {
    const session = await spawnFakeAgent(driver, { name, owner });
    targets.set(`standing:${name}`, {
      ref: `standing:${name}`,
      tmuxName: name,
      owner,
      agent,
      confirms: false,
      notRunning: 'not running',
      exited: () => 'exited',
    });
    return session;
  };

  it('a multi-line message arrives as one prompt, byte-exact, framed for an agent', async () => {
    const agent = await agentSession('multi', true);
    const text = 'first line\n\n  indented second\tline\nthird ✓ line';
    await expect(core.deliver({ ref: 'standing:multi', text, origin: cli })).resolves.toMatchObject(
      {
        outcome: 'delivered',
      },
    );
    const prompts = await eventually(async () =>
      (await agent.prompts()).length ? agent.prompts() : undefined,
    );
    // Byte-exact but for the tab, which the fake agent (like Claude Code) submits as four spaces.
    expect(prompts.map((entry) => untagged(entry.prompt))).toEqual([
      `[cli · ana]\n\n${text.replace(/\t/g, '    ')}`,
    ]);
  });

  it('tells the origin the message is submitted before it reports the outcome', async () => {
    const agent = await agentSession('handoff');
    const order: string[] = [];
    const delivery = core.deliver({
      ref: 'standing:handoff',
      text: 'hand me over',
      origin: cli,
      onSubmitted: async () => {
        order.push('submitted');
      },
    });
    await delivery;
    order.push('resolved');
    expect(order).toEqual(['submitted', 'resolved']);
    await eventually(async () => (await agent.prompts()).length === 1);
  });

  it('a 100 KB message arrives as one prompt, byte-exact', async () => {
    const agent = await agentSession('big');
    const line = 'abcdefghijklmnopqrstuvwxyz0123456789 the quick brown fox jumps ✓\n';
    const text = line.repeat(Math.ceil(100_000 / line.length));
    expect(Buffer.byteLength(text)).toBeGreaterThan(100_000);
    await core.deliver({ ref: 'standing:big', text, origin: cli });
    const prompts = await eventually(async () =>
      (await agent.prompts()).length ? agent.prompts() : undefined,
    );
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.prompt).toBe(text);
  });

  it('ESC[201~ inside a message cannot end the paste early', async () => {
    const agent = await agentSession('esc');
    const text = 'before\u001b[201~\rafter\u001b[200~ tail';
    await core.deliver({ ref: 'standing:esc', text, origin: cli });
    const prompts = await eventually(async () =>
      (await agent.prompts()).length ? agent.prompts() : undefined,
    );
    expect(prompts.map((entry) => entry.prompt)).toEqual(['before[201~after[200~ tail']);
  });

  it('200 messages to one session arrive in order, each exactly once', async () => {
    const agent = await agentSession('order');
    const texts = Array.from({ length: 200 }, (_, index) => `message ${index}`);
    await Promise.all(
      texts.map((text) => core.deliver({ ref: 'standing:order', text, origin: cli })),
    );
    const prompts = await eventually(
      async () => {
        const seen = await agent.prompts();
        return seen.length >= 200 ? seen : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(prompts.map((entry) => entry.prompt)).toEqual(texts);
  });

  it('concurrent deliveries to two sessions never swap or interleave', async () => {
    const [left, right] = await Promise.all([agentSession('left'), agentSession('right')]);
    const sends = Array.from({ length: 30 }, (_, index) => [
      core.deliver({
        ref: 'standing:left',
        text: `left ${index}\nline two of left ${index}`,
        origin: cli,
      }),
      core.deliver({
        ref: 'standing:right',
        text: `right ${index}\nline two of right ${index}`,
        origin: cli,
      }),
    ]).flat();
    await Promise.all(sends);
    const done = async (agent: FakeAgentSession) =>
      eventually(async () => ((await agent.prompts()).length >= 30 ? agent.prompts() : undefined));
    const [leftPrompts, rightPrompts] = await Promise.all([done(left), done(right)]);
    expect(leftPrompts.map((entry) => entry.prompt)).toEqual(
      Array.from({ length: 30 }, (_, index) => `left ${index}\nline two of left ${index}`),
    );
    expect(rightPrompts.map((entry) => entry.prompt)).toEqual(
      Array.from({ length: 30 }, (_, index) => `right ${index}\nline two of right ${index}`),
    );
  });

  it('never pastes into a session with our target name but without our owner tag', async () => {
    await server.tmux('new-session', '-d', '-s', 'squat', '--', 'cat');
    targets.set('standing:squat', {
      ref: 'standing:squat',
      tmuxName: 'squat',
      owner,
      agent: false,
      confirms: false,
      notRunning: 'not running',
      exited: () => 'exited',
    });
    await expect(
      core.deliver({ ref: 'standing:squat', text: 'not for you', origin: cli }),
    ).rejects.toMatchObject({ code: 'foreign_session' });
    expect(await driver.capture('squat')).not.toContain('not for you');
    expect(events.at(-1)).toMatchObject({
      event: 'delivery.failed',
      fields: { code: 'foreign_session' },
    });
  });

  it('refuses empty text and unknown refs, and logs outcomes without the text', async () => {
    await agentSession('quiet');
    await expect(
      core.deliver({ ref: 'standing:quiet', text: ' \u001b\n', origin: cli }),
    ).rejects.toMatchObject({
      code: 'empty_message',
    });
    await expect(
      core.deliver({ ref: 'standing:nope', text: 'x', origin: cli }),
    ).rejects.toMatchObject({
      code: 'session_unknown',
    });
    await core.deliver({ ref: 'standing:quiet', text: 'very private words', origin: cli });
    expect(events.map((entry) => entry.event)).toEqual([
      'delivery.failed',
      'delivery.failed',
      'delivery.delivered',
    ]);
    expect(JSON.stringify(events)).not.toContain('very private words');
  });

  it('waits for a just-spawned session to become ready instead of typing into its start-up', async () => {
    const states = createAgentStates();
    const slowCore = createDeliveryCore({
      driver,
      resolve: async () => ({
        ref: 'standing:slow',
        tmuxName: 'slow',
        owner,
        agent: false,
        confirms: false,
        notRunning: 'not running',
        exited: () => 'exited',
      }),
      states,
      confirmations: createConfirmationTracker(),
      events: { record: () => undefined },
      logger: silentLogger(),
      timing: { readyTimeoutMs: 10_000, submitDelayMs: 5, confirmTimeoutMs: 1_000 },
    });
    states.spawned('slow');
    // Sent before the session even exists: typing now would fail, so success proves the wait.
    const delivery = slowCore.deliver({
      ref: 'standing:slow',
      text: 'after start-up',
      origin: cli,
    });
    const agent = await spawnFakeAgent(driver, {
      name: 'slow',
      owner,
      env: { FAKE_AGENT_STARTUP_MS: '300' },
    });
    states.ready('slow');
    await delivery;
    const prompts = await eventually(async () =>
      (await agent.prompts()).length ? agent.prompts() : undefined,
    );
    expect(prompts.map((entry) => entry.prompt)).toEqual(['after start-up']);
  });
});
