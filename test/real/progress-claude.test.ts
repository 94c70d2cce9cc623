import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, toolUse } from '../fakes/fake-anthropic/scripted-answer.js';
import type { FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { channel, dana, startRealClaudeInSlack } from './real-claude-in-slack.js';
import { realTierUnavailable } from './real-tier-availability.js';
import type { RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

/**
 * Progress in the thread (docs/design.md §15) from the real Claude Code's PreToolUse and PostToolUse hooks:
 * a turn with two tool calls gets one status message, edited in place, and the summary at its end.
 * Read needs no permission in the session's own folder, so the turn runs without a dialog.
 */
describe.skipIf(unavailable !== undefined)('progress with the real Claude Code', () => {
  let slack: FakeSlack;
  let claude: RealClaude;
  let threadTs = '';

  beforeAll(async () => {
    ({ slack, claude, threadTs } = await startRealClaudeInSlack({
      name: 'prog',
      slack: { progress: 'summary' },
    }));
  });

  afterAll(async () => {
    await claude?.dispose();
    await slack?.stop();
  });

  it('a two-tool turn gives one status message, edited in place, ending in the summary', async () => {
    const first = path.join(claude.work, 'first.txt');
    const second = path.join(claude.work, 'second.txt');
    await writeFile(first, 'one\n');
    await writeFile(second, 'two\n');
    claude.fake.script(
      toolUse('Read', { file_path: first }),
      // Long enough that the status message gets an edit between the two calls (3 s pace).
      toolUse('Read', { file_path: second }, { delayMs: 3_500 }),
      text('Both files read.'),
    );
    const event = slack.messageEvent({ channel, user: dana, text: 'read both files', threadTs });
    await slack.socket.send(slack.eventsApiEnvelope(event));
    const summary = await slack.waitForCall(
      'chat.update',
      (call) => String(call.args['text']).startsWith('✅ done'),
      60_000,
    );
    const posts = slack
      .callsTo('chat.postMessage')
      .filter(
        (call) => call.args['thread_ts'] === threadTs && String(call.args['text']).startsWith('⏳'),
      );
    expect(posts).toHaveLength(1);
    const statusTs = String(posts[0]?.response?.['ts']);
    expect(posts[0]?.args['text']).toMatch(/^⏳ working · Read: /);
    expect(summary.args['ts']).toBe(statusTs);
    expect(summary.args['text']).toMatch(/^✅ done · 2 tool calls \(Read ×2\) · \d+:\d\d$/);
    const updates = slack.callsTo('chat.update');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.every((call) => call.args['ts'] === statusTs)).toBe(true);
    // The answer itself still comes, after the status.
    await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['thread_ts'] === threadTs && call.args['text'] === 'Both files read.',
      30_000,
    );
  });
});
