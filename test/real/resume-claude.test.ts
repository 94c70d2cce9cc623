import { afterEach, describe, expect, it } from 'vitest';
import { waitForTurns } from '../helpers/run-serve.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { startRealClaude, userTexts, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

describe.skipIf(unavailable !== undefined)('the real Claude Code across stop and start', () => {
  let claude: RealClaude | undefined;

  afterEach(async () => {
    await claude?.dispose();
  });

  it('stop → start resumes the same conversation: the model sees the earlier prompt again', async () => {
    claude = await startRealClaude();
    const created = await claude.serve.cli(['standing', 'create', 'keep']);
    expect(created.exitCode, created.stderr).toBe(0);
    // A message typed while the boot prompt's turn runs is only `queued`: wait for that turn.
    await waitForTurns(claude.serve, 'standing:keep', 1);
    const said = await claude.serve.cli(['standing', 'say', 'keep', 'remember the word aubergine']);
    expect(said.stdout, said.stderr).toMatch(/^delivered to keep/);
    const before = await claude.requestWith('remember the word aubergine');
    const conversation = (
      JSON.parse((await claude.serve.cli(['standing', 'get', 'keep', '--json'])).stdout) as {
        conversationId: string;
      }
    ).conversationId;

    const stopped = await claude.serve.cli(['standing', 'stop', 'keep']);
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    const started = await claude.serve.cli(['standing', 'start', 'keep']);
    expect(started.exitCode, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/resumed/);

    const again = await claude.serve.cli(['standing', 'say', 'keep', 'which word was it?']);
    expect(again.stdout, again.stderr).toMatch(/^delivered to keep/);
    const after = await claude.requestWith('which word was it?');
    const texts = userTexts(after);
    expect(texts.some((t) => t.includes('remember the word aubergine'))).toBe(true);
    expect(texts.filter((t) => t.includes('You are the standing session `keep`'))).toHaveLength(1);
    // Claude Code sends the conversation id as its session in the request metadata.
    expect(JSON.stringify((after.body as { metadata?: unknown }).metadata)).toContain(conversation);
    expect(JSON.stringify((before.body as { metadata?: unknown }).metadata)).toContain(
      conversation,
    );
  });
});
