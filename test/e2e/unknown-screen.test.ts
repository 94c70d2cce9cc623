import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { standingTarget } from '../../src/refs.js';
import type { LoggedEvent } from '../../src/state/event-log.js';
import { readEvents } from '../helpers/read-events.js';
import { readEvents as readAgentEvents, readPrompts } from '../fakes/fake-agent-records.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, waitForTurns, type ServeFixture } from '../helpers/run-serve.js';

/**
 * A screen the-loop cannot read (docs/design.md §13, §23): Claude Code 2.1.332 met a new dialog
 * the screen reader did not know and every message timed out unexplained. Now the session is
 * `blocked` with a reason, nothing is typed into the screen, and messages wait for a person.
 */
describe('an unreadable screen under serve', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('blocks the session, tells once with the screen and the attach line, presses nothing, and delivers once answered', async () => {
    const serve = await createServeFixture(
      () => ({
        delivery: {
          readyTimeoutMs: 2_000,
          submitDelayMs: 20,
          confirmTimeoutMs: 3_000,
          unknownScreenMs: 1_000,
        },
      }),
      { env: { FAKE_AGENT_UNKNOWN_DIALOG: '1' } },
    );
    fixture = serve;
    await serve.start();
    const events = () => readEvents(path.join(serve.stateRoot, 'events.jsonl'));
    const eventMatching = (matches: (event: LoggedEvent) => boolean, what: string) =>
      eventually(async () => (await events()).find(matches), { timeoutMs: 15_000, what });

    expect((await serve.cli(['standing', 'create', 'guard'])).exitCode).toBe(0);
    await eventMatching(
      (event) =>
        event.event === 'agent.state' &&
        event['ref'] === 'standing:guard' &&
        event['to'] === 'blocked',
      'standing:guard to be blocked',
    );
    const said = await serve.cli(['standing', 'say', 'guard', '-'], {
      input: 'waiting behind the unknown dialog',
      env: { USER: 'ana' },
    });
    expect(said.stdout, said.stderr).toMatch(/^held: a dialog is open in the session/);
    const view = await serve.cli(['standing', 'get', 'guard']);
    expect(view.stdout).toMatch(/^agent +blocked$/m);

    // Longer than delivery.readyTimeoutMs: nothing fails, nothing is typed, one notice.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const meanwhile = await events();
    expect(meanwhile.filter((event) => event.event === 'agent.start_dialog')).toEqual([
      expect.objectContaining({ ref: 'standing:guard', dialog: 'unknown' }),
    ]);
    expect(meanwhile.filter((event) => event.event === 'agent.posted')).toEqual([
      expect.objectContaining({ ref: 'standing:guard', kind: 'notice' }),
    ]);
    expect(meanwhile.some((event) => event.event === 'delivery.failed')).toBe(false);
    expect(
      meanwhile.filter((event) => event.event === 'delivery.held').map((e) => e['reason']),
    ).toContain('dialog');
    const agentEvents = await readAgentEvents(serve.agentHome);
    expect(agentEvents.some((event) => event.event === 'unknown_dialog')).toBe(true);
    expect(agentEvents.filter((event) => event.event === 'unknown_dialog_key')).toEqual([]);
    expect(await readPrompts(serve.agentHome)).toEqual([]);

    // A person answers it in the terminal: the box comes back, the boot prompt and the message go in.
    const target = `=${standingTarget('guard')}:`;
    await execa('tmux', ['-L', serve.socket, 'send-keys', '-t', target, 'Down']);
    await execa('tmux', ['-L', serve.socket, 'send-keys', '-t', target, 'Enter']);
    await waitForTurns(serve, 'standing:guard', 1).catch(async (error: unknown) => {
      process.stderr.write(
        `${JSON.stringify((await events()).slice(-15), null, 1)}\n${JSON.stringify(await readAgentEvents(serve.agentHome))}\n`,
      );
      throw error;
    });
    const prompts = (await readPrompts(serve.agentHome)).map((record) => record.prompt);
    expect(prompts.filter((p) => p.includes('You are the standing session `guard`'))).toHaveLength(
      1,
    );
    expect(prompts.some((p) => p.includes('waiting behind the unknown dialog'))).toBe(true);
    await eventMatching(
      (event) =>
        event.event === 'agent.state' && event['from'] === 'blocked' && event['to'] === 'idle',
      'standing:guard unblocked',
    );
  }, 60_000);
});
