import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogLevel, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryCore, DeliveryRequest } from '../../../src/delivery/delivery-request.js';
import { LoopError } from '../../../src/errors.js';
import { runHandler } from '../../../src/intake/intake.js';
import { threadHelp } from '../../../src/slack/commands/parse-thread-command.js';
import { createSlackNames } from '../../../src/slack/create-slack-names.js';
import { createThreadCommands } from '../../../src/slack/create-thread-commands.js';
import {
  createThreadHandler,
  type ThreadHandlerOptions,
} from '../../../src/slack/create-thread-handler.js';
import type { FileOutcome } from '../../../src/slack/files/format-file-lines.js';
import type { SlackFile } from '../../../src/slack/files/slack-file.js';
import type { SlackInboxMessage } from '../../../src/slack/slack-inbox-message.js';
import { createThreadBindings } from '../../../src/slack/thread-bindings.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { recordingDelivery } from '../github/recording-fakes.js';
import { recordingStanding } from '../../helpers/recording-standing.js';

const ref = 'standing:sup';
const channel = 'C0OPS';
const threadTs = '1700000000.000001';

let slack: FakeSlack;
let client: WebClient;
let bindings: ReturnType<typeof createThreadBindings>;
let log: ReturnType<typeof captureLogger>;
let counter = 0;

beforeEach(async () => {
  slack = await startFakeSlack({ users: { U0DANA: { name: 'dana' }, U0EVE: { name: 'eve' } } });
  client = new WebClient(slack.identity.botToken, {
    slackApiUrl: slack.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  log = captureLogger();
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-thread-handler-'));
  bindings = createThreadBindings({ dir, logger: log.logger });
  await bindings.bind({ channel, threadTs, ref, createdAt: new Date().toISOString() });
});

afterEach(async () => {
  await slack.stop();
});

function message(overrides: Partial<SlackInboxMessage> = {}): SlackInboxMessage {
  counter += 1;
  return {
    source: 'slack',
    eventId: `Ev${counter}`,
    channel,
    user: 'U0DANA',
    text: 'hello agent',
    ts: `1700000001.00000${counter}`,
    threadTs,
    receivedAt: Date.now(),
    ...overrides,
  };
}

function handler(
  delivery: DeliveryCore,
  extra: Partial<
    Pick<ThreadHandlerOptions, 'permissionCommand' | 'sessionTarget' | 'receiveFiles'>
  > = {},
) {
  const handle = createThreadHandler({
    client,
    bindings,
    delivery,
    names: createSlackNames({ client, logger: log.logger }),
    commands: createThreadCommands({ standing: recordingStanding().service }),
    authorizedUsers: ['U0DANA'],
    ...extra,
  });
  // As the intake runs it: `done` is its entry's marking (done-rule.ts), the telling after it.
  return (sent: SlackInboxMessage, done: () => Promise<void>) =>
    runHandler(handle, sent, { done, logger: log.logger });
}

/**
 * A `done` that notes which Slack calls had been made by the end of one round trip to the fake
 * Slack: a reaction or reply sent before `done` would have landed by then.
 */
function recordingDone() {
  const seen: string[][] = [];
  const done = async (): Promise<void> => {
    await client.auth.test();
    seen.push(
      slack.calls
        .filter((call) => call.method !== 'auth.test')
        .map((call) => `${call.method}:${String(call.args['name'] ?? '')}`),
    );
  };
  return { done, seen };
}

const reactionNames = (method = 'reactions.add') =>
  slack.callsTo(method).map((call) => call.args['name']);
const threadReplies = () =>
  slack
    .callsTo('chat.postMessage')
    .filter((call) => call.args['thread_ts'] === threadTs)
    .map((call) => String(call.args['text']));

describe('createThreadHandler with the real WebClient against the fake Slack', () => {
  it('delivers an authorized reply with names, then done, then eyes → white_check_mark', async () => {
    const delivery = recordingDelivery({ outcome: 'delivered' });
    const { done, seen } = recordingDone();
    const sent = message({ text: 'ask <@U0EVE> about a &lt; b' });
    await handler(delivery.core)(sent, done);
    await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'white_check_mark');

    expect(delivery.requests).toHaveLength(1);
    const request = delivery.requests[0] as DeliveryRequest;
    expect(request).toMatchObject({
      ref,
      text: 'ask @eve about a < b',
      origin: { surface: 'slack', actor: 'dana', channel: 'channel-c0ops' },
      ids: { slackEventId: sent.eventId },
    });
    expect(request.onSubmitted).toBe(done);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain('reactions.add:white_check_mark');
    expect(reactionNames()).toEqual(['eyes', 'white_check_mark']);
    expect(slack.callsTo('reactions.add')[1]?.args).toMatchObject({ channel, timestamp: sent.ts });
    expect(threadReplies()).toEqual([]);
  });

  it('marks an unconfirmed delivery with warning and says so in the thread, after done', async () => {
    const delivery = recordingDelivery({ outcome: 'unconfirmed' });
    const { done, seen } = recordingDone();
    await handler(delivery.core)(message(), done);
    await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'warning');

    expect(threadReplies()).toEqual([
      '⚠️ Typed into the session, but the agent did not confirm it received the message. Check with `!status`.',
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.filter((call) => call.startsWith('chat.postMessage'))).toEqual([]);
    expect(reactionNames()).toEqual(['eyes', 'warning']);
  });

  it('answers a failed delivery with warning and "Not delivered: <remedy>", after done', async () => {
    const failure = new LoopError(
      'session_not_running',
      'sup is stopped; start it with `/loop start sup`.',
    );
    const delivery = recordingDelivery({ failure });
    const { done, seen } = recordingDone();
    await handler(delivery.core)(message(), done);
    await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'warning');

    expect(threadReplies()).toEqual([`⚠️ Not delivered: ${failure.message}`]);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.filter((call) => call.startsWith('chat.postMessage'))).toEqual([]);
    expect(reactionNames()).not.toContain('white_check_mark');
  });

  it('shows the hourglass only while a delivery waits, and takes it off before the result', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: DeliveryCore = {
      async deliver() {
        await gate;
        return { outcome: 'delivered', deliveryId: 'slow-1' };
      },
    };
    const handling = handler(slow)(message(), async () => undefined);
    await slack.waitForCall(
      'reactions.add',
      (call) => call.args['name'] === 'hourglass_flowing_sand',
    );
    release();
    await handling;
    await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'white_check_mark');
    expect(reactionNames()).toEqual(['eyes', 'hourglass_flowing_sand', 'white_check_mark']);
    expect(reactionNames('reactions.remove')).toEqual(['hourglass_flowing_sand']);
  });

  it('tells an unauthorized person once, ephemerally, and delivers nothing', async () => {
    const delivery = recordingDelivery();
    const { done, seen } = recordingDone();
    await handler(delivery.core)(message({ user: 'U0EVE' }), done);

    expect(delivery.requests).toEqual([]);
    // Done once its handling ends, after the notice: nothing was typed.
    expect(seen).toEqual([['chat.postEphemeral:']]);
    const notices = slack.callsTo('chat.postEphemeral');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.args).toMatchObject({ channel, user: 'U0EVE', thread_ts: threadTs });
    expect(String(notices[0]?.args['text'])).toContain('`U0EVE` to `slack.authorizedUsers`');
    expect(slack.callsTo('reactions.add')).toEqual([]);
    expect(log.events()).toContain('slack.unauthorized');
  });

  it('still delivers when Slack refuses a reaction, and logs the refusal', async () => {
    slack.failNext('reactions.add', { okFalse: 'missing_scope' });
    const delivery = recordingDelivery({ outcome: 'delivered' });
    await handler(delivery.core)(message(), async () => undefined);
    await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'white_check_mark');
    expect(delivery.requests).toHaveLength(1);
    expect(log.events()).toContain('slack.reaction_failed');
  });

  it('ignores a reply in a thread that is bound to no session', async () => {
    const delivery = recordingDelivery();
    await handler(delivery.core)(message({ threadTs: '1699999999.000009' }), async () => undefined);
    expect(delivery.requests).toEqual([]);
    expect(slack.calls.filter((call) => call.method !== 'auth.test')).toEqual([]);
  });

  it('runs a `!` command in the thread and never types it into the session', async () => {
    const delivery = recordingDelivery();
    await handler(delivery.core)(message({ text: '!help' }), async () => undefined);
    expect(delivery.requests).toEqual([]);
    expect(threadReplies()).toEqual([threadHelp()]);
    expect(slack.callsTo('reactions.add')).toEqual([]);
  });

  it('leaves a message answered as a permission command to that command, even from others', async () => {
    const delivery = recordingDelivery();
    const asked: [string, string][] = [];
    const permissionCommand = async (sent: SlackInboxMessage, bound: string) => {
      asked.push([sent.text, bound]);
      return true;
    };
    await handler(delivery.core, { permissionCommand })(
      message({ user: 'U0EVE', text: '!allow' }),
      async () => undefined,
    );
    expect(asked).toEqual([['!allow', ref]]);
    expect(delivery.requests).toEqual([]);
    expect(slack.callsTo('chat.postEphemeral')).toEqual([]);
  });

  describe('attached files', () => {
    const file: SlackFile = {
      id: 'F0ONE',
      name: 'notes.txt',
      size: 12,
      url: 'https://files.slack.com/files-pri/T0/F0ONE/notes.txt',
    };

    it('hands them to the receiver for an agent session and appends one line per file', async () => {
      const delivery = recordingDelivery();
      const received: [readonly SlackFile[], string, string][] = [];
      const outcomes: FileOutcome[] = [
        { kind: 'stored', name: 'notes.txt', path: '/state/files/loop-sup/notes.txt', bytes: 12 },
        { kind: 'failed', name: 'big.bin', why: 'larger than 10 MB' },
      ];
      const sent = message({ text: 'see attached', files: [file] });
      await handler(delivery.core, {
        sessionTarget: async () => ({ tmuxName: 'loop-sup', agent: true }),
        receiveFiles: async (files, messageTs, tmuxName) => {
          received.push([files, messageTs, tmuxName]);
          return outcomes;
        },
      })(sent, async () => undefined);

      expect(received).toEqual([[[file], sent.ts, 'loop-sup']]);
      expect(delivery.requests[0]?.text).toBe(
        'see attached\n\n' +
          '[file: /state/files/loop-sup/notes.txt (notes.txt, 12 bytes)]\n' +
          '[file not delivered: big.bin: larger than 10 MB]',
      );
    });

    it('tells the thread a plain shell gets no files, and delivers nothing when there was only a file', async () => {
      const delivery = recordingDelivery();
      const fetched: string[] = [];
      await handler(delivery.core, {
        sessionTarget: async () => ({ tmuxName: 'loop-sup', agent: false }),
        receiveFiles: async (_files, messageTs) => {
          fetched.push(messageTs);
          return [];
        },
      })(message({ text: '', files: [file] }), async () => undefined);
      await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'warning');

      expect(fetched).toEqual([]);
      expect(delivery.requests).toEqual([]);
      expect(threadReplies()).toHaveLength(1);
      expect(threadReplies()[0]).toMatch(/^📎 Files go to agent harnesses only/);
    });
  });
});
