import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { standingTarget } from '../../src/refs.js';
import type { LoggedEvent } from '../../src/state/event-log.js';
import { readEvents } from '../helpers/read-events.js';
import { readEvents as readAgentEvents, readPrompts } from '../fakes/fake-agent-records.js';
import { eventually } from '../helpers/eventually.js';
import { CLAUDE_TESTED_VERSIONS } from '../../src/harness/claude-versions.js';
import {
  createServeFixture,
  waitForTurns,
  type CliResult,
  type ServeFixture,
} from '../helpers/run-serve.js';

/**
 * The fast twins of test/real/claude-delivery.test.ts: the same behaviours of issue 11, against
 * the fake agent where it models what Claude Code does (docs/claude-code.md has the table).
 */
describe('what the fake agent does as Claude Code does, under serve', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  const start = async (env: Record<string, string>, delivery: Record<string, number> = {}) => {
    const started = await createServeFixture(
      () => ({
        delivery: {
          readyTimeoutMs: 15_000,
          submitDelayMs: 20,
          confirmTimeoutMs: 3_000,
          ...delivery,
        },
      }),
      // Sessions inherit serve's environment: the knobs reach the fake agent this way.
      { env },
    );
    fixture = started;
    await started.start();
    return started;
  };
  const events = (serve: ServeFixture) => readEvents(path.join(serve.stateRoot, 'events.jsonl'));
  const eventMatching = (
    serve: ServeFixture,
    matches: (event: LoggedEvent) => boolean,
    what: string,
  ) => eventually(async () => (await events(serve)).find(matches), { timeoutMs: 15_000, what });
  const say = (serve: ServeFixture, name: string, text: string) =>
    serve.cli(['standing', 'say', name, '-'], { input: text, env: { USER: 'ana' } });
  const deliveryIdOf = (said: CliResult) => /\(delivery ([0-9a-f-]{36})/.exec(said.stdout)?.[1];
  const finalOutcome = async (serve: ServeFixture, said: CliResult) => {
    const id = deliveryIdOf(said);
    const final = await eventMatching(
      serve,
      (event) =>
        event['deliveryId'] === id &&
        ['delivery.delivered', 'delivery.unconfirmed', 'delivery.failed'].includes(event.event),
      `the final outcome of ${id}`,
    );
    return final.event;
  };
  const keys = (serve: ServeFixture, name: string, ...pressed: string[]) =>
    execa('tmux', ['-L', serve.socket, 'send-keys', '-t', `=${standingTarget(name)}:`, ...pressed]);
  const prompts = async (serve: ServeFixture) =>
    (await readPrompts(serve.agentHome)).map((record) => record.prompt);

  it('1: a message sent while a permission dialog is open is held, never answers it, and goes in after', async () => {
    const serve = await start({});
    expect((await serve.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
    await waitForTurns(serve, 'standing:sup', 1);
    const ask = await say(serve, 'sup', 'make the file\nFAKE:dialog touch made');
    expect(ask.stdout, ask.stderr).toMatch(/^delivered to sup/);
    const agentEvents = () => readAgentEvents(serve.agentHome);
    await eventually(
      async () => (await agentEvents()).some((e) => e.event === 'permission_dialog'),
      {
        what: 'the fake permission dialog',
      },
    );
    const during = await say(serve, 'sup', 'sent while the dialog is open');
    expect(during.stdout, during.stderr).toMatch(
      /^held: the agent is waiting for a permission decision/,
    );
    // Nothing reached the dialog: a key there would have answered it.
    expect((await agentEvents()).filter((e) => e.event === 'permission_dialog_key')).toEqual([]);
    await keys(serve, 'sup', '1');
    expect(await finalOutcome(serve, during)).toBe('delivery.delivered');
    expect((await agentEvents()).filter((e) => e.event === 'permission_dialog_key')).toHaveLength(
      1,
    );
    expect((await prompts(serve)).at(-1)).toMatch(/\n\nsent while the dialog is open$/);
  }, 40_000);

  it('2: a message sent while a turn runs is queued at once, then delivered when taken', async () => {
    const serve = await start({ FAKE_AGENT_TURN_MS: '2500' });
    expect((await serve.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
    await waitForTurns(serve, 'standing:sup', 1);
    const first = await say(serve, 'sup', 'a slow turn');
    expect(first.stdout, first.stderr).toMatch(/^delivered to sup/);
    const started = Date.now();
    const queued = await say(serve, 'sup', 'typed while busy');
    // Answered before the running turn ends: nothing holds the session's queue.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(queued.stdout, queued.stderr).toMatch(
      /^queued: sup takes it when its running turn ends/,
    );
    expect(await finalOutcome(serve, queued)).toBe('delivery.delivered');
  }, 40_000);

  it('3: a tab, which the agent turns into four spaces, is still confirmed (by its tag)', async () => {
    const serve = await start({});
    expect((await serve.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
    await waitForTurns(serve, 'standing:sup', 1);
    const said = await say(serve, 'sup', 'col1\tcol2');
    expect(said.stdout, said.stderr).toMatch(/^delivered to sup/);
    expect((await prompts(serve)).at(-1)).toMatch(/^\[cli · ana · [0-9a-f]{4}\]\n\ncol1 {4}col2$/);
  }, 30_000);

  it('4: after an Escape the prompt the agent puts back is cleared, not sent with the next message', async () => {
    const serve = await start({ FAKE_AGENT_TURN_MS: '3000' });
    expect((await serve.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
    await waitForTurns(serve, 'standing:sup', 1);
    const first = await say(serve, 'sup', 'interrupt me');
    expect(first.stdout, first.stderr).toMatch(/^delivered to sup/);
    await keys(serve, 'sup', 'Escape');
    await eventually(
      async () =>
        /^❯\u00a0\[cli · ana · [0-9a-f]{4}\] {2}interrupt me/m.test(
          (
            await execa('tmux', [
              '-L',
              serve.socket,
              'capture-pane',
              '-p',
              '-t',
              `=${standingTarget('sup')}:`,
            ])
          ).stdout,
        ),
      { what: 'the interrupted prompt back in the box' },
    );
    const next = await say(serve, 'sup', 'after the interrupt');
    expect(next.stdout, next.stderr).toMatch(/^delivered to sup/);
    expect((await prompts(serve)).at(-1)).toMatch(
      /^\[cli · ana · [0-9a-f]{4}\]\n\nafter the interrupt$/,
    );
  }, 40_000);

  // 2.1.332 submits a queued message at once, and no UserPromptSubmit starts the merged turn
  // after the running one's Stop: the session must still show busy, and a message then is queued
  // (test/real/claude-delivery.test.ts "10"; test/real/FINDINGS.md (h)).
  it.each(CLAUDE_TESTED_VERSIONS)(
    '10 (fake as %s): while the merged turn of queued messages runs the session is busy, and a message then is queued',
    async (version) => {
      const serve = await start({ FAKE_AGENT_VERSION: version });
      expect((await serve.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
      await waitForTurns(serve, 'standing:sup', 1);
      const gates = await mkdtemp(path.join(tmpdir(), 'loop-twin-gates-'));
      const [slowEnds, mergedEnds] = ['slow', 'merged'].map((name) => path.join(gates, name));
      const first = await say(serve, 'sup', `a slow turn\nFAKE:until ${slowEnds}`);
      expect(first.stdout, first.stderr).toMatch(/^delivered to sup/);
      const queued = await say(serve, 'sup', `typed while busy\nFAKE:until ${mergedEnds}`);
      expect(queued.stdout, queued.stderr).toMatch(/^queued: sup takes it/);
      const posted = async () =>
        (await events(serve)).filter(
          (event) => event.event === 'agent.posted' && event['ref'] === 'standing:sup',
        ).length;
      const before = await posted();
      await writeFile(slowEnds!, '');
      // The slow turn's Stop has been heard (its answer is posted); the merged turn is held.
      await eventually(async () => (await posted()) > before, { what: "the slow turn's answer" });
      const got = await serve.cli(['standing', 'get', 'sup', '--json']);
      expect((JSON.parse(got.stdout) as { agentState?: string }).agentState).toBe('busy');
      const during = await say(serve, 'sup', 'said during the merged turn');
      expect(during.stdout, during.stderr).toMatch(/^queued: sup takes it/);
      await writeFile(mergedEnds!, '');
      expect(await finalOutcome(serve, queued)).toBe('delivery.delivered');
      expect(await finalOutcome(serve, during)).toBe('delivery.delivered');
      await waitForTurns(serve, 'standing:sup', 2);
    },
    40_000,
  );

  it('5: a trust dialog before start-up blocks the session, is told once, and the boot prompt goes in once answered', async () => {
    const serve = await start({ FAKE_AGENT_TRUST_DIALOG: '1' }, { readyTimeoutMs: 2_000 });
    expect((await serve.cli(['standing', 'create', 'guard'])).exitCode).toBe(0);
    await eventMatching(
      serve,
      (event) =>
        event.event === 'agent.state' &&
        event['ref'] === 'standing:guard' &&
        event['to'] === 'blocked',
      'standing:guard to be blocked',
    );
    const said = await say(serve, 'guard', 'waiting behind the dialog');
    expect(said.stdout, said.stderr).toMatch(/^held: a dialog is open in the session/);
    // Longer than delivery.readyTimeoutMs: the boot prompt waits for a person, it does not fail.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const meanwhile = await events(serve);
    expect(meanwhile.filter((event) => event.event === 'agent.start_dialog')).toEqual([
      expect.objectContaining({ ref: 'standing:guard', dialog: 'trust' }),
    ]);
    expect(meanwhile.filter((event) => event.event === 'agent.posted')).toEqual([
      expect.objectContaining({ ref: 'standing:guard', kind: 'notice' }),
    ]);
    expect(meanwhile.some((event) => event.event === 'delivery.failed')).toBe(false);
    expect(await prompts(serve)).toEqual([]);
    await keys(serve, 'guard', 'Enter');
    await waitForTurns(serve, 'standing:guard', 1);
    const boots = (await prompts(serve)).filter((prompt) =>
      prompt.includes('You are the standing session `guard`'),
    );
    expect(boots).toHaveLength(1);
    expect(await finalOutcome(serve, said)).toBe('delivery.delivered');
  }, 40_000);
});
