import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { waitForTurns } from '../helpers/run-serve.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { startRealClaude, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

/**
 * Issue 11 item 6 with the real Claude Code under serve: the `idle_prompt` notice, a minute after
 * every answer, reaches serve and is not posted (the answer was). Its own file: it waits a minute.
 */
describe.skipIf(unavailable !== undefined)('the real Claude Code left alone under serve', () => {
  let claude: RealClaude;

  beforeAll(async () => {
    claude = await startRealClaude();
    const created = await claude.serve.cli(['standing', 'create', 'quiet']);
    expect(created.exitCode, created.stderr).toBe(0);
  });

  afterAll(async () => {
    await claude?.dispose();
  });

  it(
    '6: the idle_prompt after an answer reaches serve and nothing is posted for it',
    { timeout: 150_000 },
    async () => {
      await waitForTurns(claude.serve, 'standing:quiet', 1);
      const notification = () =>
        claude.serve
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find(
            (entry) =>
              entry['event'] === 'api.request' && entry['path'] === '/api/v1/hooks/Notification',
          );
      const heard = await eventually(notification, {
        timeoutMs: 100_000,
        intervalMs: 500,
        what: 'the idle_prompt Notification hook to reach serve',
      });
      expect(heard['status']).toBe(204);
      const posted = (await claude.events()).filter((event) => event.event === 'agent.posted');
      expect(posted.map((event) => event['kind'])).toEqual(['reply']);
    },
  );
});
