import { randomBytes } from 'node:crypto';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { eventually } from '../helpers/eventually.js';
import { binPath, type ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { agentRecords } from '../faults/support/agent-records.js';
import { logged } from '../faults/support/serve-log.js';
import { createAnnounced, slackOperator, startSlackServe } from '../faults/support/slack-serve.js';
import { makeFifo, releaseFifos, within } from '../faults/support/special-files.js';

const secret = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;

/**
 * docs/design.md §18: serve opens no path an agent names, and nothing an agent sends can block it.
 * Every special file (FIFO, socket, device, /proc/self/environ, /dev/zero, a symlink to each) goes
 * to every reader — the post API with a session token, `the-loop post --file`, a Stop hook's
 * `transcript_path` — and serve must answer each at once, keep serving `say`, and let no secret
 * of its environment reach Slack.
 */
describe('paths an agent names', () => {
  const secrets = {
    botToken: secret('xoxb-'),
    appToken: secret('xapp-'),
    githubToken: secret('ghp_'),
    apiToken: secret('api-'),
  };
  let slack: FakeSlack;
  let fixture: ServeFixture;
  let token = '';
  let threadTs = '';
  let listener: Server;
  let specials: Record<string, string> = {};
  let fifos: string[] = [];
  let projects = '';

  const client = () =>
    createApiClient({
      socketPath: path.join(fixture.stateRoot, 'control.sock'),
      timeoutMs: 10_000,
    });
  const asSession = (route: string, body: unknown) =>
    client().request('POST', route, body, { 'X-The-Loop-Session-Token': token });
  const cliPost = (args: readonly string[]) =>
    execa(process.execPath, [binPath, 'post', ...args], {
      env: {
        PATH: process.env['PATH'] ?? '',
        THE_LOOP_SESSION_TOKEN: token,
        THE_LOOP_SOCKET: path.join(fixture.stateRoot, 'control.sock'),
      },
      reject: false,
      timeout: 20_000,
    });
  /** serve still delivers to its agent, within the time a person would wait. */
  const stillServes = async (words: string) => {
    const said = await within(15_000, fixture.cli(['standing', 'say', 'agent', words]));
    expect(said, `say hung after ${words}`).not.toBe('timedOut');
    expect(said === 'timedOut' ? -1 : said.exitCode).toBe(0);
    await eventually(async () => (await agentRecords.bodies(fixture)).includes(words), {
      timeoutMs: 15_000,
      what: `"${words}" to reach the agent`,
    });
  };

  beforeAll(async () => {
    slack = await startFakeSlack({
      botToken: secrets.botToken,
      appToken: secrets.appToken,
      users: { [slackOperator]: { name: 'dana' } },
    });
    fixture = await startSlackServe(slack, {
      env: {
        GITHUB_TOKEN: secrets.githubToken,
        GITHUB_API_URL: 'http://127.0.0.1:9',
        THE_LOOP_API_TOKEN: secrets.apiToken,
        CLAUDE_CONFIG_DIR: '',
      },
    });
    threadTs = await createAnnounced(fixture, slack, 'agent');
    const record = JSON.parse(
      await readFile(path.join(fixture.stateRoot, 'standing', 'agent.json'), 'utf8'),
    ) as { sessionToken: string };
    token = record.sessionToken;
    const dir = fixture.dir;
    fifos = ['fifo-a', 'fifo-b', 'fifo-c', 'fifo-d'].map((name) => path.join(dir, name));
    for (const fifo of fifos) await makeFifo(fifo);
    listener = createServer();
    await new Promise<void>((resolve) => listener.listen(path.join(dir, 'sock'), resolve));
    specials = {
      FIFO: fifos[0] ?? '',
      socket: path.join(dir, 'sock'),
      '/dev/zero': '/dev/zero',
      device: '/dev/null',
      '/proc/self/environ': '/proc/self/environ',
    };
    for (const [what, target] of Object.entries(specials)) {
      const link = path.join(dir, `link-to-${what.replace(/\W/g, '-')}`);
      await symlink(target, link);
      specials[`a symlink to ${what}`] = link;
    }
    projects = path.join(process.env['HOME'] ?? '', '.claude', 'projects');
  }, 120_000);

  afterAll(async () => {
    await releaseFifos(fifos);
    await new Promise<void>((resolve) => listener?.close(() => resolve()));
    await fixture?.dispose();
    await slack?.stop();
  });

  it('the post API refuses a path in any form, at once, and serve keeps serving', async () => {
    const plain = path.join(fixture.dir, 'plain.txt');
    await writeFile(plain, 'a regular file serve must not open either');
    for (const [what, file] of Object.entries({ ...specials, 'a regular file': plain })) {
      const answer = await within(
        5_000,
        asSession('/api/v1/post', { text: 'x', files: [{ path: file }] }),
      );
      expect(answer === 'timedOut' ? 'timedOut' : answer.status, what).toBe(400);
    }
    // As many FIFOs at once as libuv has file threads: the wedge of issue 21.2.
    const wedge = await within(
      5_000,
      Promise.all(
        fifos.map((fifo) => asSession('/api/v1/post', { text: 'x', files: [{ path: fifo }] })),
      ),
    );
    expect(wedge === 'timedOut' ? 'timedOut' : wedge.map((answer) => answer.status)).toEqual([
      400, 400, 400, 400,
    ]);
    await stillServes('after the post API');
  }, 90_000);

  it('the CLI refuses every special file without sending a byte', async () => {
    for (const [what, file] of Object.entries(specials)) {
      const result = await cliPost(['x', '--file', file]);
      expect(result.timedOut, `${what}: the CLI hung`).toBe(false);
      expect(result.exitCode, what).toBe(1);
      expect(String(result.stderr), what).toContain(file);
    }
    await stillServes('after the CLI');
  }, 120_000);

  it('the CLI sends a regular file as bytes, and it arrives in the thread', async () => {
    const file = path.join(fixture.dir, 'report.txt');
    await writeFile(file, 'the report\n');
    const result = await cliPost(['here', '--file', file]);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    await eventually(() => slack.uploadedFiles.some((upload) => upload.filename === 'report.txt'), {
      timeoutMs: 15_000,
      what: 'the upload',
    });
    const upload = slack.uploadedFiles.find((entry) => entry.filename === 'report.txt');
    expect(upload?.content.toString()).toBe('the report\n');
    expect(upload?.threadTs).toBe(threadTs);
  }, 60_000);

  it('a Stop hook names each special file, or a file outside Claude Code projects folder: nothing is read', async () => {
    const outside = path.join(fixture.dir, 'outside.jsonl');
    const line = {
      type: 'assistant',
      message: { content: 'words from outside the projects folder' },
    };
    await writeFile(outside, `${JSON.stringify(line)}\n`);
    const paths = { ...specials, 'a transcript outside the projects folder': outside };
    for (const [what, file] of Object.entries(paths)) {
      const answer = await within(
        5_000,
        asSession('/api/v1/hooks/Stop', { hook_event_name: 'Stop', transcript_path: file }),
      );
      expect(answer === 'timedOut' ? 'timedOut' : answer.status, what).toBe(204);
    }
    const wedge = await within(
      5_000,
      Promise.all(
        fifos.map((fifo) =>
          asSession('/api/v1/hooks/Stop', { hook_event_name: 'Stop', transcript_path: fifo }),
        ),
      ),
    );
    expect(wedge === 'timedOut' ? 'timedOut' : wedge.map((answer) => answer.status)).toEqual([
      204, 204, 204, 204,
    ]);
    await stillServes('after the hooks');
    await eventually(
      () => logged(fixture, 'hook.transcript_unreadable').length >= Object.keys(paths).length,
      { timeoutMs: 10_000, what: 'each refused transcript to be logged' },
    );
    expect(logged(fixture, 'hook.transcript_unreadable').map((entry) => entry['reason'])).toEqual(
      expect.arrayContaining([expect.stringContaining(`not inside ${projects}`)]),
    );
    const posted = slack
      .callsTo('chat.postMessage')
      .map((call) => String(call.args['text']))
      .join('\n');
    expect(posted).not.toContain('words from outside');
  }, 90_000);

  it("no secret of serve's environment reaches Slack", async () => {
    const seen = JSON.stringify(slack.calls.map((call) => call.args));
    const uploaded = slack.uploadedFiles.map((file) => file.content.toString('latin1')).join('\n');
    const leaks = Object.entries({ ...secrets, sessionToken: token }).filter(
      ([, value]) => seen.includes(value) || uploaded.includes(value),
    );
    expect(leaks.map(([name]) => name)).toEqual([]);
    // The calls were there to search: the thread and the upload.
    expect(slack.callsTo('chat.postMessage').length).toBeGreaterThan(0);
  });
});
