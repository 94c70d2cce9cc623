import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { agentRecords } from './support/agent-records.js';
import { logEntries } from './support/serve-log.js';
import {
  createAnnounced,
  sendReply,
  slackChannel,
  slackOperator,
  startSlackServe,
} from './support/slack-serve.js';

const warnLevel = 40;

describe('corrupt and truncated record files present when serve starts', () => {
  let slack: FakeSlack | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
  });

  it('skips each with a warning naming the file, and everything else works', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fake = slack;
    fixture = await startSlackServe(fake);
    const serve = fixture;
    const threadTs = await createAnnounced(serve, fake, 'good');
    await serve.kill('SIGKILL');

    const state = serve.stateRoot;
    const good = await readFile(path.join(state, 'standing', 'good.json'), 'utf8');
    const binding = await readFile(
      path.join(state, 'slack', 'threads', `${slackChannel.toLowerCase()}-${threadTs}.json`),
      'utf8',
    );
    const inbox = path.join(state, 'inbox', 'slack');
    await mkdir(inbox, { recursive: true });
    const now = String(Date.now()).padStart(15, '0');
    const planted = {
      truncatedStanding: path.join(state, 'standing', 'half.json'),
      binaryStanding: path.join(state, 'standing', 'noise.json'),
      wrongShapeStanding: path.join(state, 'standing', 'shape.json'),
      truncatedBinding: path.join(state, 'slack', 'threads', 'c0ops-1700000099.000001.json'),
      truncatedInbox: path.join(inbox, `${now}-000000-1.json`),
      wrongShapeInbox: path.join(inbox, `${now}-000001-1.json`),
    };
    await writeFile(
      planted.truncatedStanding,
      good.replaceAll('good', 'half').slice(0, good.length / 2),
      { mode: 0o600 },
    );
    await writeFile(
      planted.binaryStanding,
      Buffer.from([0x00, 0xff, 0x7b, 0x1b, 0x5b, 0x32, 0x4a]),
      { mode: 0o600 },
    );
    await writeFile(planted.wrongShapeStanding, '{"version":1,"name":"shape"}\n', { mode: 0o600 });
    await writeFile(planted.truncatedBinding, binding.slice(0, 20), { mode: 0o600 });
    await writeFile(planted.truncatedInbox, '{"source":"slack","eventId":"Ev0TORN","chan', {
      mode: 0o600,
    });
    await writeFile(planted.wrongShapeInbox, '["not", "a", "message"]\n', { mode: 0o600 });
    // Beside them, one intact message recorded before the crash: it must still be delivered.
    const intact = {
      source: 'slack',
      eventId: 'Ev0INTACT',
      channel: slackChannel,
      user: slackOperator,
      text: 'recorded before the crash',
      ts: '1700000098.000001',
      threadTs,
      receivedAt: Date.now(),
    };
    await writeFile(path.join(inbox, `${now}-000002-1.json`), JSON.stringify(intact), {
      mode: 0o600,
    });

    await serve.start();
    await fake.socket.connected(15_000);
    await eventually(async () => (await agentRecords.bodies(serve)).includes(intact.text), {
      timeoutMs: 15_000,
      what: 'the intact inbox entry to be delivered',
    });
    const listed = JSON.parse((await serve.cli(['standing', 'list', '--json'])).stdout) as Array<{
      name: string;
      status: string;
    }>;
    expect(listed.map((session) => [session.name, session.status])).toEqual([['good', 'running']]);

    await sendReply(fake, threadTs, 'after the restart');
    await eventually(async () => (await agentRecords.bodies(serve)).includes('after the restart'), {
      timeoutMs: 15_000,
    });
    // Answers go back into the thread, which reads every binding (the torn one included).
    await fake.waitForCall(
      'chat.postMessage',
      (call) => call.args['thread_ts'] === threadTs && call.response?.['ok'] === true,
      15_000,
    );
    expect(await agentRecords.bodies(serve)).toEqual([intact.text, 'after the restart']);

    const warnings = await eventually(
      () => {
        const named = new Set(
          logEntries(serve)
            .filter((entry) => entry['level'] === warnLevel && typeof entry['file'] === 'string')
            .map((entry) => String(entry['file'])),
        );
        return Object.values(planted).every((file) => named.has(file)) ? named : undefined;
      },
      { timeoutMs: 10_000, what: 'a warning naming every corrupt file' },
    ).catch(() => undefined);
    const missing = Object.entries(planted)
      .filter(([, file]) => !warnings?.has(file))
      .map(([what]) => what);
    expect(missing, 'corrupt files nobody warned about').toEqual([]);
    expect((await serve.cli(['status'])).exitCode).toBe(0);
  }, 60_000);
});
