import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogLevel, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../../src/slack/progress/create-progress-reporter.js';
import { createThreadBindings } from '../../../src/slack/thread-bindings.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';

const ref = 'standing:sup';
const intervalMs = 300;

describe('createProgressReporter with the real WebClient against the fake Slack', () => {
  let slack: FakeSlack;
  let client: WebClient;
  let bindings: ReturnType<typeof createThreadBindings>;
  const log = captureLogger();

  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new WebClient(slack.identity.botToken, {
      slackApiUrl: slack.apiUrl,
      logLevel: LogLevel.ERROR,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-progress-'));
    bindings = createThreadBindings({ dir, logger: log.logger });
    await bindings.bind({
      channel: 'C0OPS',
      threadTs: '1700000000.000001',
      ref,
      createdAt: new Date().toISOString(),
    });
  });

  afterEach(async () => {
    await slack.stop();
  });

  const reporter = (mode: 'summary' | 'delete' | 'off', fastRetries = false) =>
    createProgressReporter({
      client,
      bindings,
      mode,
      logger: log.logger,
      intervalMs,
      // Retry-After (whole seconds) is honoured at a tenth of its length, so a storm stays short.
      ...(fastRetries
        ? {
            sleep: (ms: number) =>
              new Promise((resolve) => setTimeout(resolve, ms >= 1000 ? ms / 10 : ms)),
          }
        : {}),
    });

  it('folds a burst of tool calls into one edit that shows the latest, then the summary', async () => {
    const progress = reporter('summary');
    progress.turnStarted(ref);
    progress.toolStarted(ref, 'Bash', { command: 'npm ci' });
    await slack.waitForCall('chat.postMessage');
    for (const file of ['a.ts', 'b.ts', 'c.ts']) {
      progress.toolStarted(ref, 'Read', { file_path: file });
      progress.toolFinished(ref, 'Read', { file_path: file });
    }
    const edit = await slack.waitForCall('chat.update');
    expect(edit.args['text']).toMatch(/^⏳ working · Read: c\.ts · 0:0\d$/);
    progress.turnEnded(ref);
    const summary = await slack.waitForCall('chat.update', (call) =>
      String(call.args['text']).startsWith('✅'),
    );
    expect(summary.args['text']).toMatch(/^✅ done · 4 tool calls \(Read ×3, Bash\) · 0:0\d$/);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
    expect(slack.callsTo('chat.update')).toHaveLength(2);
    const times = [slack.callsTo('chat.postMessage')[0], ...slack.callsTo('chat.update')].map(
      (call) => call?.at ?? 0,
    );
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(intervalMs - 20);
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(intervalMs - 20);
  });

  it('drops an edit refused with 429 and retries the final summary until it lands', async () => {
    const progress = reporter('summary', true);
    progress.turnStarted(ref);
    progress.toolStarted(ref, 'Bash', { command: 'npm test' });
    await slack.waitForCall('chat.postMessage');
    slack.failNext('chat.update', { status: 429, retryAfterSeconds: 1 }, 3);
    progress.toolFinished(ref, 'Bash', { command: 'npm test' });
    await log.waitFor((line) => line['event'] === 'slack.progress_dropped');
    progress.turnEnded(ref);
    const summary = await slack.waitForCall(
      'chat.update',
      (call) => !call.failedWith && String(call.args['text']).startsWith('✅'),
    );
    expect(summary.response).toMatchObject({ ok: true });
    // One dropped in-between edit, then two refused attempts of the summary before it landed.
    expect(slack.callsTo('chat.update').map((call) => call.failedWith !== undefined)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('delete removes the message; off and a turn without tools post nothing', async () => {
    const deleting = reporter('delete');
    deleting.turnStarted(ref);
    deleting.toolStarted(ref, 'Bash', { command: 'ls' });
    deleting.turnEnded(ref);
    const deleted = await slack.waitForCall('chat.delete');
    expect(deleted.args['ts']).toBe(slack.callsTo('chat.postMessage')[0]?.response?.['ts']);

    slack.reset();
    const off = reporter('off');
    off.turnStarted(ref);
    off.toolStarted(ref, 'Bash', { command: 'ls' });
    off.turnEnded(ref);
    const quiet = reporter('summary');
    quiet.turnStarted(ref);
    quiet.turnEnded(ref);
    quiet.toolStarted('standing:unbound', 'Bash', { command: 'ls' });
    await new Promise((resolve) => setTimeout(resolve, intervalMs * 2));
    expect(slack.calls.filter((call) => call.method.startsWith('chat.'))).toEqual([]);
  });
});
