import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testHoldEnv } from '../../src/test-hold.js';
import { eventually } from '../helpers/eventually.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { startRealClaudeInSlack, type RealClaudeInSlack } from './real-claude-in-slack.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { userTexts } from './start-real-claude.js';

const unavailable = realTierUnavailable();

/**
 * Exactly once across a crash (docs/architecture.md) with the real Claude Code: serve is killed
 * after a Slack reply's Enter and before its inbox entry is recorded done (the test-only
 * THE_LOOP_TEST_HOLD seam holds it there). The restarted serve looks at the real input box — empty,
 * same process — and lets the entry go instead of typing the reply a second time.
 */
describe.skipIf(unavailable !== undefined)('the real Claude Code and a crash at the Enter', () => {
  const marker = path.join(tmpdir(), `loop-hold-${randomUUID()}`);
  let setup: RealClaudeInSlack | undefined;

  beforeAll(async () => {
    setup = await startRealClaudeInSlack({
      name: 'sup',
      env: { [testHoldEnv]: `after-enter:${marker}` },
    });
  });

  afterAll(async () => {
    await setup?.claude.dispose();
    await setup?.slack.stop();
    await rm(marker, { force: true });
  });

  it('a reply whose Enter went in before serve died reaches the model once', async () => {
    const { claude, slack, reply } = setup!;
    await reply('deploy the staging branch once');
    await eventually(async () => (await stat(marker).catch(() => undefined)) !== undefined, {
      what: 'the reply to be held after its Enter',
    });
    await claude.requestWith('deploy the staging branch once');
    await waitForTurns(claude.serve, 'standing:sup', 2);
    await claude.serve.kill('SIGKILL');
    await claude.serve.start();
    await slack.socket.connected(15_000);

    // Behind the recovered entry in the thread's lane: its request carries the whole history.
    await reply('then report back');
    const last = await claude.requestWith('then report back');
    const sent = userTexts(last).filter((text) => text.includes('deploy the staging branch once'));
    expect(sent).toHaveLength(1);
  });
});
