import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';
import { createDeliveryCore } from '../../../src/delivery/create-delivery-core.js';
import type { DeliveryCore, DeliveryTarget } from '../../../src/delivery/delivery-request.js';
import { isSubmitMark, type SubmitMark } from '../../../src/delivery/submit-mark.js';
import { readClaudeScreen } from '../../../src/harness/claude-screen.js';
import { createInbox, type Inbox } from '../../../src/intake/inbox.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { createTmuxDriver } from '../../../src/tmux/create-tmux-driver.js';
import type { TmuxDriver } from '../../../src/tmux/tmux-driver.js';
import { untagged } from '../../helpers/agent-prompts.js';
import { eventually } from '../../helpers/eventually.js';
import { createPrivateTmux, type PrivateTmux } from '../../helpers/private-tmux.js';
import { spawnFakeAgent, type FakeAgentSession } from '../../helpers/spawn-fake-agent.js';

const owner = 'owner-resume';
const cli = { surface: 'cli', actor: 'ana' } as const;
const ref = 'standing:sup';

interface Text {
  readonly text: string;
}
const isText = (value: unknown): value is Text =>
  typeof value === 'object' && value !== null && typeof (value as Text).text === 'string';
const never = () => new Promise<never>(() => undefined);

/**
 * Exactly once across a crash (docs/architecture.md): a process dies after the mark it writes
 * before the Enter, and one started afterwards finds the entry, with its mark, in the same inbox
 * folder. It must neither lose the message nor type it a second time. The crash is a delivery
 * whose next step never comes; the restart is a new inbox and a new delivery core.
 */
describe('a message marked before a crash, delivered after it', () => {
  let server: PrivateTmux;
  let driver: TmuxDriver;
  let dir: string;
  let agent: FakeAgentSession;

  const target: DeliveryTarget = {
    ref,
    tmuxName: 'sup',
    owner,
    agent: true,
    confirms: false,
    notRunning: 'not running',
    exited: () => 'exited',
    screen: readClaudeScreen,
  };
  const newCore = (): DeliveryCore =>
    createDeliveryCore({
      driver,
      resolve: async () => target,
      states: createAgentStates(),
      confirmations: createConfirmationTracker(),
      events: { record: () => undefined },
      logger: silentLogger(),
      timing: { readyTimeoutMs: 5_000, submitDelayMs: 5, confirmTimeoutMs: 1_000 },
    });
  const newInbox = (): Inbox<Text> =>
    createInbox({ dir, validate: isText, logger: silentLogger() });
  const agentEvents = async () =>
    (await readFile(path.join(agent.home, 'events.jsonl'), 'utf8').catch(() => ''))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { event: string }).event);
  const prompts = async () => (await agent.prompts()).map((entry) => untagged(entry.prompt));

  /** After the "restart": the one entry still pending, with the mark the dead process wrote. */
  const markedEntry = async (): Promise<{ key: string; mark: SubmitMark }> =>
    eventually(async () => {
      const [entry] = await newInbox().pending();
      return entry && isSubmitMark(entry.mark) ? { key: entry.key, mark: entry.mark } : undefined;
    });

  beforeEach(async () => {
    server = createPrivateTmux();
    driver = createTmuxDriver({ runner: server.runner, logger: silentLogger() });
    dir = await mkdtemp(path.join(tmpdir(), 'loop-resume-'));
    agent = await spawnFakeAgent(driver, { name: 'sup', owner });
  });
  afterEach(async () => {
    await server.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('one whose Enter went in is not typed again, and its entry is let go', async () => {
    const before = newInbox();
    const { key } = await before.add({ text: 'deploy once' });
    // The Enter goes; the process dies before it records the entry done.
    void newCore().deliver({
      ref,
      text: 'deploy once',
      origin: cli,
      onSubmitting: (mark) => before.mark(key, mark),
      onSubmitted: never,
    });
    await eventually(async () => (await prompts()).length === 1);

    const { mark } = await markedEntry();
    const after = newInbox();
    await after.pending();
    const core = newCore();
    const resumed = await core.deliver({
      ref,
      text: 'deploy once',
      origin: cli,
      resume: mark,
      onSubmitted: () => after.done(key),
    });
    // It went in, but nobody is left to hear the agent confirm it.
    expect(resumed.outcome).toBe('unconfirmed');
    await core.deliver({ ref, text: 'and then this', origin: cli });
    await eventually(async () => (await prompts()).length === 2);
    expect(await prompts()).toEqual(['[cli · ana]\n\ndeploy once', '[cli · ana]\n\nand then this']);
    // Done, and its mark gone with it: a third start finds nothing to deliver.
    expect(await newInbox().pending()).toEqual([]);
  });

  it('one whose paste still waits for its Enter gets the Enter, not a second paste', async () => {
    const before = newInbox();
    const { key } = await before.add({ text: 'ship it' });
    // The mark is written; the process dies before the Enter.
    void newCore().deliver({
      ref,
      text: 'ship it',
      origin: cli,
      onSubmitting: async (mark) => {
        await before.mark(key, mark);
        await never();
      },
    });
    const { mark } = await markedEntry();
    expect(await prompts()).toEqual([]);

    const after = newInbox();
    await after.pending();
    const resumed = await newCore().deliver({
      ref,
      text: 'ship it',
      origin: cli,
      resume: mark,
      onSubmitted: () => after.done(key),
    });
    expect(resumed.outcome).toBe('delivered');
    await eventually(async () => (await prompts()).length === 1);
    expect(await prompts()).toEqual(['[cli · ana]\n\nship it']);
    // Enter onto the paste that waited: it was not cleared and pasted anew.
    expect(await agentEvents()).not.toContain('box_cleared');
    expect(await newInbox().pending()).toEqual([]);
  });

  it('one marked in a pane whose process has changed since is typed again: nothing is lost', async () => {
    const before = newInbox();
    const { key } = await before.add({ text: 'still wanted' });
    const { panePid } = await driver.probe('sup');
    expect(panePid).toBeDefined();
    await before.mark(key, { tag: '0abc', tmuxName: 'sup', panePid: (panePid ?? 0) + 1 });
    const { mark } = await markedEntry();
    const resumed = await newCore().deliver({
      ref,
      text: 'still wanted',
      origin: cli,
      resume: mark,
    });
    expect(resumed.outcome).toBe('delivered');
    await eventually(async () => (await prompts()).length === 1);
    expect(await prompts()).toEqual(['[cli · ana]\n\nstill wanted']);
  });
});
