import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionRoutes } from '../../../src/api/routes/session-routes.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';
import { silentLogger } from '../../../src/log/create-logger.js';

/**
 * docs/design.md §4 step 8: a message Claude Code injected into a running turn never gets a
 * UserPromptSubmit; the Stop of that turn confirms it by the tag in the transcript's
 * `queued_command` attachment (the transcript lines as Claude Code 2.1.197 writes them).
 */
describe('the Stop hook confirms deliveries injected into the turn', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const setUp = (projectsDir: string) => {
    const confirmations = createConfirmationTracker();
    const routes = sessionRoutes({
      directory: {
        sessionForToken: async () => ({ ref: 'standing:x', tmuxName: 'loop-standing-x' }),
      },
      states: createAgentStates(),
      confirmations,
      replies: { post: async () => ({ targets: [], failed: [] }) },
      logger: silentLogger(),
      projectsDir,
      maxPostFileBytes: 1024,
    });
    const hook = routes.find((route) => route.path === '/api/v1/hooks/{event}');
    if (!hook) throw new Error('no hook route');
    const stop = (body: Record<string, unknown>) =>
      hook.handler({
        params: { event: 'Stop' },
        body,
        sessionToken: 'token',
        requestId: 'r1',
        signal: new AbortController().signal,
        logger: silentLogger(),
      });
    return { confirmations, stop };
  };

  it('confirms the delivery whose tag a queued_command attachment carries, and no other', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-injected-'));
    const transcript = path.join(dir, 'transcript.jsonl');
    const lines = [
      { type: 'queue-operation', operation: 'enqueue', content: '[cli · ana · 0b0b]\n\nnot taken' },
      {
        type: 'attachment',
        attachment: {
          type: 'queued_command',
          prompt: '[cli · ana · 02be]\n\ninjected',
          commandMode: 'prompt',
          origin: { kind: 'human' },
        },
      },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      },
    ];
    await writeFile(transcript, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const { confirmations, stop } = setUp(dir);
    const injected = confirmations.expect('loop-standing-x', '02be');
    const waiting = confirmations.expect('loop-standing-x', '0b0b');
    await stop({ transcript_path: transcript, last_assistant_message: 'ok' });
    expect(await injected.wait(2_000)).toBe(true);
    expect(await waiting.wait(100)).toBe(false);
  });

  it('reads nothing when no delivery is pending, and survives a transcript that is not a file', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loop-injected-'));
    const { confirmations, stop } = setUp(dir);
    await stop({ transcript_path: dir, last_assistant_message: 'ok' });
    const pending = confirmations.expect('loop-standing-x', '02be');
    await stop({ transcript_path: dir, last_assistant_message: 'ok' });
    expect(await pending.wait(100)).toBe(false);
  });
});
