import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogLevel, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventSink } from '../../../src/state/event-log.js';
import { createAnnouncer } from '../../../src/slack/create-announcer.js';
import { createThreadBindings, type ThreadBindings } from '../../../src/slack/thread-bindings.js';
import type { StandingDefinition } from '../../../src/standing/standing-types.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { recordingStanding } from '../../helpers/recording-standing.js';
import { slackConfig } from '../../helpers/slack-config.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';

interface Recorded {
  readonly event: string;
  readonly fields: Record<string, unknown>;
}

/** An EventSink whose `next(name)` resolves with the next event of that name. */
function awaitableEvents() {
  const events: Recorded[] = [];
  const waiters: { name: string; resolve: (recorded: Recorded) => void }[] = [];
  const sink: EventSink = {
    record(event, fields = {}) {
      const recorded = { event, fields };
      events.push(recorded);
      for (const waiter of waiters.filter((each) => each.name === event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(recorded);
      }
    },
  };
  const next = (name: string) =>
    new Promise<Recorded>((resolve) => waiters.push({ name, resolve }));
  return { sink, events, next };
}

const definition = (overrides: Partial<StandingDefinition> = {}): StandingDefinition => ({
  name: 'sup',
  description: 'keeps the build green',
  harness: 'claude',
  args: [],
  cwd: '/work/repo',
  autoStart: true,
  slack: { channel: '' },
  ...overrides,
});

let slack: FakeSlack;
let client: WebClient;
let bindings: ThreadBindings;
let log: ReturnType<typeof captureLogger>;

beforeEach(async () => {
  slack = await startFakeSlack();
  client = new WebClient(slack.identity.botToken, {
    slackApiUrl: slack.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  log = captureLogger();
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-announcer-'));
  bindings = createThreadBindings({ dir, logger: log.logger });
});

afterEach(async () => {
  await slack.stop();
});

function announcer(
  raw: Record<string, unknown> = { instance: { name: 'box' } },
  using: ThreadBindings = bindings,
) {
  const standing = recordingStanding();
  const recorded = awaitableEvents();
  let threadRecorded: () => void = () => undefined;
  const threadSaved = new Promise<void>((resolve) => (threadRecorded = resolve));
  const listener = createAnnouncer({
    config: slackConfig(raw),
    client,
    bindings: using,
    standing: {
      ...standing.service,
      async recordSlackThread(name, binding) {
        await standing.service.recordSlackThread(name, binding);
        threadRecorded();
      },
    },
    events: recorded.sink,
    logger: log.logger,
    maxAttempts: 1,
  });
  return { listener, standing, recorded, threadSaved };
}

describe('createAnnouncer with the real WebClient against the fake Slack', () => {
  it('announces a first start in the channel, binds that thread and records it on the session', async () => {
    const { listener, standing, recorded, threadSaved } = announcer();
    const announced = recorded.next('standing.announced');
    listener.started?.('sup', 'started', definition());
    const { fields } = await announced;
    await threadSaved;

    const posts = slack.callsTo('chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args['channel']).toBe('C0OPS');
    expect(posts[0]?.args['thread_ts']).toBeUndefined();
    expect(posts[0]?.args['text']).toBe(
      '🟢 Standing session `sup` is running on `box` — keeps the build green.\n' +
        "Reply in this thread to talk to it. `!help` lists thread commands; `tmux attach -t '=loop-standing-sup'` shows its terminal.",
    );
    const threadTs = posts[0]?.response?.['ts'];
    expect(await bindings.forRef('standing:sup')).toMatchObject({ channel: 'C0OPS', threadTs });
    expect(fields).toEqual({ name: 'sup', channel: 'C0OPS', threadTs });
    expect(standing.threads.get('sup')).toEqual({ channel: 'C0OPS', threadTs });
  });

  it('posts a later start into the same thread, never a new one', async () => {
    const { listener, recorded } = announcer();
    const first = recorded.next('standing.announced');
    listener.started?.('sup', 'started', definition());
    const { fields } = await first;

    for (const [outcome, text] of [
      ['resumed', '🔄 `sup` is back, on the same conversation.'],
      ['started', '🔄 `sup` started again.'],
    ] as const) {
      const again = recorded.next('standing.announced');
      listener.started?.('sup', outcome, definition());
      expect((await again).fields).toEqual({ name: 'sup', channel: 'C0OPS', again: true });
      const post = slack.callsTo('chat.postMessage').at(-1);
      expect(post?.args).toMatchObject({ channel: 'C0OPS', thread_ts: fields['threadTs'], text });
    }
    expect(
      slack.callsTo('chat.postMessage').filter((call) => !call.args['thread_ts']),
    ).toHaveLength(1);
  });

  it("announces in the session's own channel when it names one", async () => {
    const { listener, recorded } = announcer();
    const announced = recorded.next('standing.announced');
    listener.started?.('sup', 'started', definition({ slack: { channel: 'C0DEV' } }));
    expect((await announced).fields['channel']).toBe('C0DEV');
    expect(slack.callsTo('chat.postMessage')[0]?.args['channel']).toBe('C0DEV');
  });

  it('records a failed announcement and lets the session run on without a thread', async () => {
    const { listener, recorded, standing } = announcer();
    slack.failNext('chat.postMessage', { okFalse: 'channel_not_found' });
    const failed = recorded.next('standing.announce_failed');
    listener.started?.('sup', 'started', definition());
    const { fields } = await failed;

    expect(fields).toMatchObject({ name: 'sup', channel: 'C0OPS' });
    expect(String(fields['reason'])).toContain('channel_not_found');
    expect(await bindings.forRef('standing:sup')).toBeUndefined();
    expect(standing.threads.size).toBe(0);
    expect(log.events()).toContain('standing.announce_failed');
  });

  it('announces nothing for a session with slack: false, or when no channel is set anywhere', async () => {
    const off = announcer();
    off.listener.started?.('sup', 'started', definition({ slack: false }));
    const nowhere = announcer({ slack: { channel: '' } });
    nowhere.listener.started?.('sup', 'started', definition());
    nowhere.listener.workItemStarted?.('github:octo/repo#7', 'started');
    // A session that is announced after them is the only post: they returned without one.
    const later = announcer();
    const announced = later.recorded.next('standing.announced');
    later.listener.started?.('docs', 'started', definition({ name: 'docs' }));
    await announced;
    expect(slack.callsTo('chat.postMessage').map((call) => call.args['text'])).toEqual([
      expect.stringContaining('`docs`'),
    ]);
    expect([...off.recorded.events, ...nowhere.recorded.events]).toEqual([]);
  });

  it('removes the binding when a session is deleted', async () => {
    let unbound: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (unbound = resolve));
    const real = bindings;
    const watched: ThreadBindings = {
      ...real,
      unbindRef: async (ref) => real.unbindRef(ref).then(unbound),
    };
    const { listener, recorded } = announcer(undefined, watched);
    const announced = recorded.next('standing.announced');
    listener.started?.('sup', 'started', definition());
    await announced;
    expect(await real.forRef('standing:sup')).toBeDefined();

    listener.deleted?.('sup');
    await gone;
    expect(await real.forRef('standing:sup')).toBeUndefined();
  });

  it('announces a work item with its issue link and terminal, then binds the thread', async () => {
    const { listener, recorded } = announcer();
    const announced = recorded.next('workitem.announced');
    listener.workItemStarted?.('github:octo/repo#7', 'started');
    const { fields } = await announced;

    const post = slack.callsTo('chat.postMessage')[0];
    expect(post?.args['channel']).toBe('C0OPS');
    expect(post?.args['text']).toBe(
      '🟢 A session for github:octo/repo#7 on `box` is running: https://github.com/octo/repo/issues/7\n' +
        "Reply in this thread to talk to it, or comment on the issue. `tmux attach -t '=loop-gh-octo-repo-7'` shows its terminal.",
    );
    expect(fields).toEqual({
      ref: 'github:octo/repo#7',
      channel: 'C0OPS',
      threadTs: post?.response?.['ts'],
    });
    expect(await bindings.forRef('github:octo/repo#7')).toMatchObject({ channel: 'C0OPS' });
  });
});
