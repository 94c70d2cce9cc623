import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from '../fakes/fake-anthropic/scripted-answer.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { startClaudePane, type ClaudePane } from './start-claude-pane.js';

const unavailable = realTierUnavailable();

/** FINDINGS (f): the notice the-loop must not post. Its own file: it waits a minute. */
describe.skipIf(unavailable !== undefined)('the real Claude Code when left alone', () => {
  let pane: ClaudePane;

  beforeAll(async () => {
    pane = await startClaudePane();
  });

  afterAll(async () => {
    await pane?.dispose();
  });

  it(
    'sends idle_prompt about 60 s after an answer, and not before',
    { timeout: 150_000 },
    async () => {
      const session = await pane.launch();
      await pane.waitForScreen(session, /^❯\u00a0$/m);
      pane.fake.script(text('Answered.'));
      await pane.submit(session, 'answer me, then wait');
      const stop = await pane.waitForHook(
        (call) => call.event === 'Stop' && call.input.last_assistant_message === 'Answered.',
        'Stop',
      );
      const idle = await pane.waitForHook(
        (call) => call.event === 'Notification' && call.input.notification_type === 'idle_prompt',
        'the idle_prompt notice',
        { timeoutMs: 100_000 },
      );
      expect(idle.input.message).toBe('Claude is waiting for your input');
      expect(idle.at - stop.at).toBeGreaterThanOrEqual(55_000);
      expect(idle.at - stop.at).toBeLessThanOrEqual(70_000);
    },
  );
});
