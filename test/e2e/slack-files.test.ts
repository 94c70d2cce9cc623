import { untagged } from '../helpers/agent-prompts.js';
import { createServer, type Server } from 'node:http';
import { readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import { binPath, createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';

const channel = 'C0OPS';
const dana = 'U0DANA';
const maxBytes = 4096;

describe('Slack files in (docs/design.md §15)', { timeout: 90_000 }, () => {
  let slack: FakeSlack;
  let fixture: ServeFixture;
  let elsewhere: Server | undefined;

  const startServe = async () => {
    fixture = await createServeFixture(
      () => ({ slack: { enabled: true, channel, authorizedUsers: [dana], files: { maxBytes } } }),
      {
        env: {
          SLACK_BOT_TOKEN: slack.identity.botToken,
          SLACK_APP_TOKEN: slack.identity.appToken,
          SLACK_API_URL: slack.apiUrl,
        },
      },
    );
    await fixture.start();
    await slack.socket.connected(15_000);
  };

  const createAnnounced = async (name: string, harness = 'fake'): Promise<string> => {
    const created = await fixture.cli([
      'standing',
      'create',
      name,
      '--harness',
      harness,
      '--slack-channel',
      channel,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['channel'] === channel && call.args['thread_ts'] === undefined,
      15_000,
    );
    return String(announcement.response?.['ts']);
  };

  const share = (text: string, threadTs: string, files: readonly Record<string, unknown>[]) => {
    const event = slack.messageEvent({
      channel,
      user: dana,
      text,
      threadTs,
      subtype: 'file_share',
      files,
    });
    return slack.socket.send(slack.eventsApiEnvelope(event)).then(() => event.ts);
  };

  const promptEnding = (pattern: RegExp) =>
    eventually(
      async () => (await agentPrompts(fixture.agentHome)).find((prompt) => pattern.test(prompt)),
      { timeoutMs: 20_000, what: `a prompt matching ${pattern}` },
    );

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
    await new Promise((resolve) => (elsewhere ? elsewhere.close(resolve) : resolve(undefined)));
    elsewhere = undefined;
  });

  it('downloads files with the bot token into the session folder and names each in the message', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    // A server that is not Slack's file host: it must never see a request, let alone the token.
    const seenElsewhere: string[] = [];
    elsewhere = createServer((req, res) => {
      seenElsewhere.push(String(req.headers.authorization));
      res.end('stolen');
    });
    await new Promise<void>((resolve) => elsewhere?.listen(0, '127.0.0.1', resolve));
    const elsewherePort = (elsewhere.address() as { port: number }).port;
    await startServe();
    const threadTs = await createAnnounced('files');
    const longName = `${'é'.repeat(300)}.csv`;
    const files = [
      slack.addFile({ name: 'notes.txt', content: 'hello notes\n' }),
      slack.addFile({ name: '../../x', content: 'traversal' }),
      slack.addFile({ name: 'a\u0007b\u001b[31m\nc.txt', content: 'control' }),
      slack.addFile({ name: longName, content: 'a,b\n1,2\n' }),
      slack.addFile({ name: 'big.bin', content: Buffer.alloc(maxBytes + 1, 1) }),
      slack.addFile({ name: 'cut.log', content: Buffer.alloc(3000, 65), cutAfterBytes: 1000 }),
      {
        id: 'F0ELSEWHERE',
        name: 'evil.txt',
        size: 6,
        url_private_download: `http://127.0.0.1:${elsewherePort}/files-pri/T0-F0/download/evil.txt`,
      },
    ];
    const ts = await share('here are the files', threadTs, files);
    const prompt = await promptEnding(/\[file not delivered: evil\.txt/);
    const lines = untagged(prompt).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `[slack · @dana in #channel-${channel.toLowerCase()}]`,
      '',
      'here are the files',
    ]);
    const folder = await realpath(path.join(fixture.stateRoot, 'files', 'loop-standing-files'));
    const stored = lines
      .map((line) => /^\[file: (.+) \((.+), (\d+) bytes\)\]$/.exec(line))
      .filter((match) => match !== null);
    expect(stored.map((match) => [match[2], Number(match[3])])).toEqual([
      ['notes.txt', 12],
      ['../../x', 9],
      ['a b [31m c.txt', 7],
      [`${'é'.repeat(199)}…`, 8],
    ]);
    const contents = ['hello notes\n', 'traversal', 'control', 'a,b\n1,2\n'];
    for (const [index, match] of stored.entries()) {
      const file = match[1] ?? '';
      expect(path.isAbsolute(file)).toBe(true);
      expect(path.dirname(await realpath(file))).toBe(folder);
      expect(path.basename(file).startsWith(`${ts}-`)).toBe(true);
      expect(Buffer.byteLength(path.basename(file))).toBeLessThanOrEqual(200);
      expect(await readFile(file, 'utf8')).toBe(contents[index]);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    expect(path.basename(stored[1]?.[1] ?? '')).toBe(`${ts}-__.._x`);
    expect(path.basename(stored[3]?.[1] ?? '')).toMatch(/^[\d.]+-é+\.csv$/);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const failed = lines.filter((line) => line.startsWith('[file not delivered: '));
    expect(failed).toEqual([
      `[file not delivered: big.bin: too large (${maxBytes + 1} bytes; the limit is slack.files.maxBytes = ${maxBytes})]`,
      '[file not delivered: cut.log: the download was cut off after 1000 bytes; send the file again]',
      "[file not delivered: evil.txt: its address is not on Slack's file host, so it was not fetched]",
    ]);
    // Only the four good files and the cut one were fetched, each with the bot token.
    expect(slack.fileDownloads.map((download) => download.authorized)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(seenElsewhere).toEqual([]);
    // No partial file is left behind by the cut-off download.
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(folder)).some((name) => name.includes('cut.log'))).toBe(false);
    // The fake, like Slack, gives a file only to the bot token.
    const anonymous = await fetch(String(files[0]?.['url_private_download']), {
      redirect: 'manual',
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toMatch(/signin/);

    // A reply that is only a file is a message too.
    await share('', threadTs, [slack.addFile({ name: 'only.txt', content: 'just me' })]);
    const only = await promptEnding(/only\.txt, 7 bytes\)\]$/);
    expect(only.split('\n').slice(1, 2)).toEqual(['']);
    expect(only.split('\n')).toHaveLength(3);

    // Deleting the session removes its files.
    const deleted = await fixture.cli(['standing', 'delete', 'files']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    await eventually(
      () =>
        stat(folder).then(
          () => false,
          () => true,
        ),
      { what: "the session's files folder to be removed" },
    );
  });

  it('a plain shell gets no file lines, and the thread is told files go to agent harnesses only', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe();
    const threadTs = await createAnnounced('shelly', 'shell');
    await share('', threadTs, [slack.addFile({ name: 'notes.txt', content: 'x' })]);
    await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === threadTs &&
        /Files go to agent harnesses only/.test(String(call.args['text'])),
      15_000,
    );
    await slack.waitForCall('reactions.add', (call) => call.args['name'] === 'warning', 10_000);
    expect(slack.fileDownloads).toEqual([]);
  });

  it('the-loop post --file uploads each file into the thread after the text', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe();
    const threadTs = await createAnnounced('sender', 'shell');
    const log = path.join(fixture.dir, 'build.log');
    const shot = path.join(fixture.dir, 'shot.png');
    await writeFile(log, 'all green\n');
    await writeFile(shot, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    const command = [
      process.execPath,
      binPath,
      'post',
      'the results',
      '--file',
      log,
      '--file',
      shot,
    ]
      .map((part) => `'${part}'`)
      .join(' ');
    await slack.socket.send(
      slack.eventsApiEnvelope(slack.messageEvent({ channel, user: dana, text: command, threadTs })),
    );
    const completed = await slack.waitForCall(
      'files.completeUploadExternal',
      (call) => !call.failedWith,
      20_000,
    );
    expect(completed.args).toMatchObject({ channel_id: channel, thread_ts: threadTs });
    expect(completed.response).toMatchObject({ ok: true });
    expect(
      slack.uploadedFiles.map((file) => [file.filename, file.content.toString('hex')]),
    ).toEqual([
      ['build.log', Buffer.from('all green\n').toString('hex')],
      ['shot.png', '89504e4700010203'],
    ]);
    expect(slack.uploadedFiles.every((file) => file.threadTs === threadTs)).toBe(true);
    expect(slack.callsTo('files.getUploadURLExternal').map((call) => call.args)).toEqual([
      { filename: 'build.log', length: '10' },
      { filename: 'shot.png', length: '8' },
    ]);
    const text = slack
      .callsTo('chat.postMessage')
      .find((call) => call.args['thread_ts'] === threadTs && call.args['text'] === 'the results');
    expect(text?.at).toBeLessThanOrEqual(completed.at);
  });
});
