import { execa } from 'execa';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { untagged } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, waitForTurns, type ServeFixture } from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';
import { eventsOf } from './support/serve-log.js';

interface DeliveryStatus {
  readonly deliveryId: string;
  readonly outcome: string;
}

/**
 * A sender must never be told "failed" about a message that is typed later (it would send it
 * again). A say answers at once when its message has to wait, and a message whose sender hung up
 * before any answer is never typed.
 */
describe('a session that cannot take messages for a while (its harness is stopped)', () => {
  let fixture: ServeFixture | undefined;
  let stoppedPid: number | undefined;

  afterEach(async () => {
    if (stoppedPid) process.kill(stoppedPid, 'SIGCONT');
    stoppedPid = undefined;
    await fixture?.dispose();
    fixture = undefined;
  });

  const freeze = async (serve: ServeFixture, target: string): Promise<number> => {
    const shown = await execa('tmux', [
      '-L',
      serve.socket,
      'display-message',
      '-p',
      '-t',
      `=${target}:`,
      '#{pane_pid}',
    ]);
    const pid = Number(shown.stdout.trim());
    process.kill(pid, 'SIGSTOP');
    return pid;
  };

  it('answers every say in time, never "failed", and types a message only while its sender waits', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    expect((await serve.cli(['standing', 'create', 'stuck'])).exitCode).toBe(0);
    await waitForTurns(serve, 'standing:stuck', 1);
    stoppedPid = await freeze(serve, 'loop-standing-stuck');

    // A client that gives up before any answer: its message must never be typed.
    const impatient = createApiClient({
      socketPath: path.join(serve.stateRoot, 'control.sock'),
      timeoutMs: 500,
    });
    const says = Array.from({ length: 8 }, (_, index) =>
      serve.cli(['standing', 'say', 'stuck', `message ${index}`, '--json']),
    );
    // The abandoned message must wait behind these: every one of them is in the queue first.
    await eventually(
      async () =>
        (await eventsOf(serve)).filter((entry) => entry.event === 'delivery.queued').length >= 7,
      { what: 'the says to queue up' },
    );
    const abandoned = await impatient
      .request('POST', '/api/v1/standing-sessions/stuck/say', { text: 'abandoned message' })
      .then(
        () => 'answered',
        () => 'gave up',
      );
    expect(abandoned).toBe('gave up');

    const answers = await Promise.all(says);
    for (const answer of answers) {
      // Every sender hears an outcome it can trust, within the CLI's own time limit.
      expect(answer.exitCode, answer.stderr).toBe(0);
    }
    const outcomes = answers.map((answer) => JSON.parse(answer.stdout) as DeliveryStatus);
    expect(outcomes.map((outcome) => outcome.outcome)).toContain('queued');

    process.kill(stoppedPid, 'SIGCONT');
    stoppedPid = undefined;
    const client = createApiClient({
      socketPath: path.join(serve.stateRoot, 'control.sock'),
      timeoutMs: 2_000,
    });
    const finals = await eventually(
      async () => {
        const statuses = await Promise.all(
          outcomes.map(async (outcome) => {
            const reply = await client.request('GET', `/api/v1/deliveries/${outcome.deliveryId}`);
            return (reply.body as DeliveryStatus).outcome;
          }),
        );
        return statuses.every((status) => status !== 'pending' && status !== 'queued')
          ? statuses
          : undefined;
      },
      { timeoutMs: 60_000, what: 'every delivery to end' },
    );
    expect(finals.every((status) => status === 'delivered' || status === 'unconfirmed')).toBe(true);
    const prompts = (await agentRecords.prompts(serve)).map(untagged);
    expect(prompts.join('\n')).not.toContain('abandoned message');
    // Nothing was typed twice, and in the order sent.
    const typed = prompts.flatMap((prompt) =>
      [...prompt.matchAll(/message (\d)/g)].map((m) => m[1]),
    );
    expect(new Set(typed).size).toBe(typed.length);
  }, 120_000);
});
