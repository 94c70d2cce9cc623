import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { untagged } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, fakeAgentHarness, type ServeFixture } from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';
import { eventsOf } from './support/serve-log.js';

interface DeliveryStatus {
  readonly deliveryId: string;
  readonly outcome: string;
}

/**
 * A sender must never be told "failed" about a message that is typed later (it would send it
 * again). A say answers in time when its message has to wait, and a message whose sender hung up
 * before any answer is never typed. The queue is filled by a session that takes seconds to start
 * (SIGSTOP would not do: tmux sends SIGCONT to a pane process that stops).
 */
describe('messages that wait in a session queue (its harness is slow to start)', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('answers every say in time, never "failed", and types a message only while its sender waits', async () => {
    fixture = await createServeFixture(({ agentHome }) => ({
      harnesses: fakeAgentHarness(agentHome, { FAKE_AGENT_STARTUP_MS: '4000' }),
    }));
    const serve = fixture;
    await serve.start();
    expect((await serve.cli(['standing', 'create', 'slow'])).exitCode).toBe(0);

    const says = Array.from({ length: 6 }, (_, index) =>
      serve.cli(['standing', 'say', 'slow', `message ${index}`, '--json']),
    );
    // The abandoned message must wait behind these: every one of them is in the queue first.
    await eventually(
      async () =>
        (await eventsOf(serve)).filter((entry) => entry.event === 'delivery.queued').length >= 6,
      { what: 'the says to queue up' },
    );
    // A client that gives up before any answer: its message must never be typed.
    const impatient = createApiClient({
      socketPath: path.join(serve.stateRoot, 'control.sock'),
      timeoutMs: 300,
    });
    const abandoned = await impatient
      .request('POST', '/api/v1/standing-sessions/slow/say', { text: 'abandoned message' })
      .then(
        (reply) => `answered ${reply.status} ${JSON.stringify(reply.body)}`,
        () => 'gave up',
      );
    expect(abandoned).toBe('gave up');

    const answers = await Promise.all(says);
    for (const answer of answers) {
      // Every sender hears an outcome it can trust, within the CLI's own time limit.
      expect(answer.exitCode, answer.stderr).toBe(0);
    }
    const outcomes = answers.map((answer) => JSON.parse(answer.stdout) as DeliveryStatus);
    expect(
      outcomes.every((outcome) => ['delivered', 'queued', 'unconfirmed'].includes(outcome.outcome)),
    ).toBe(true);

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
        return statuses.every((status) => status === 'delivered') ? statuses : undefined;
      },
      { timeoutMs: 60_000, what: 'every delivery to be taken' },
    );
    expect(finals).toHaveLength(6);
    const cancelled = (await eventsOf(serve)).filter(
      (entry) => entry.event === 'delivery.failed' && entry['code'] === 'delivery_cancelled',
    );
    expect(cancelled).toHaveLength(1);
    const prompts = (await agentRecords.prompts(serve)).map(untagged);
    expect(prompts.join('\n')).not.toContain('abandoned message');
    // Nothing was typed twice.
    const typed = prompts.flatMap((prompt) =>
      [...prompt.matchAll(/message (\d)/g)].map((match) => match[1]),
    );
    expect(typed.sort()).toEqual(['0', '1', '2', '3', '4', '5']);
  }, 120_000);
});
