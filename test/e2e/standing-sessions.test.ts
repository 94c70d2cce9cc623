import { untagged } from '../helpers/agent-prompts.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../helpers/read-events.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, waitForTurns, type ServeFixture } from '../helpers/run-serve.js';

interface PromptLine {
  prompt: string;
  sessionId: string;
}
interface ArgvLine {
  argv: string[];
  pid: number;
}

async function jsonLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

const prompts = async (fixture: ServeFixture) =>
  (await jsonLines<PromptLine>(path.join(fixture.agentHome, 'prompts.jsonl'))).map((line) => ({
    ...line,
    prompt: untagged(line.prompt),
  }));
const starts = (fixture: ServeFixture) =>
  jsonLines<ArgvLine>(path.join(fixture.agentHome, 'argv.jsonl'));
const userPrompts = async (fixture: ServeFixture) =>
  (await prompts(fixture)).filter((line) => !line.prompt.startsWith('[the-loop]'));

describe('standing sessions end to end: bin/the-loop against a running serve', () => {
  let fixture: ServeFixture;

  afterEach(async () => {
    await fixture.dispose();
  });

  it('create → say → stop → start resumes the same conversation → delete frees the name', async () => {
    fixture = await createServeFixture();
    await fixture.start();

    const created = await fixture.cli([
      'standing',
      'create',
      'sup',
      '--prompt',
      'Watch the builds.',
      '--json',
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    // A message typed while the boot prompt's turn runs is `queued`; this one is meant for an idle agent.
    await waitForTurns(fixture, 'standing:sup', 1);

    const said = await fixture.cli(['standing', 'say', 'sup', 'hello from the test'], {
      env: { USER: 'ana' },
    });
    expect(said.exitCode, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/delivered/);

    const received = await eventually(async () => {
      const lines = await prompts(fixture);
      return lines.length >= 2 ? lines : undefined;
    });
    expect(received[0]?.prompt).toMatch(/^\[the-loop\]\n\nYou are the standing session `sup`/);
    expect(received[0]?.prompt).toMatch(/Watch the builds\.$/);
    expect(received[1]?.prompt).toBe('[cli · ana]\n\nhello from the test');
    const conversation = received[0]?.sessionId;
    expect(conversation).toMatch(/^[0-9a-f-]{36}$/);

    const stopped = await fixture.cli(['standing', 'stop', 'sup']);
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    const afterStop = JSON.parse(
      (await fixture.cli(['standing', 'get', 'sup', '--json'])).stdout,
    ) as {
      status: string;
      conversationId: string;
    };
    expect(afterStop).toMatchObject({ status: 'stopped', conversationId: conversation });

    const restarted = await fixture.cli(['standing', 'start', 'sup']);
    expect(restarted.exitCode, restarted.stderr).toBe(0);
    expect(restarted.stdout).toMatch(/resumed/);
    const launches = await starts(fixture);
    expect(launches.at(-1)?.argv).toEqual(expect.arrayContaining(['--resume', conversation]));

    await fixture.cli(['standing', 'say', 'sup', 'after the resume']);
    await eventually(async () =>
      (await userPrompts(fixture)).some((line) => line.prompt.endsWith('after the resume')),
    );
    // A resumed conversation already has its boot prompt: it is not sent twice.
    expect(
      (await prompts(fixture)).filter((line) => line.prompt.startsWith('[the-loop]')),
    ).toHaveLength(1);

    const deleted = await fixture.cli(['standing', 'delete', 'sup']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    const gone = await fixture.cli(['standing', 'get', 'sup']);
    expect(gone.exitCode).toBe(1);
    const again = await fixture.cli(['standing', 'create', 'sup', '--no-start']);
    expect(again.exitCode, again.stderr).toBe(0);

    const events = (await readEvents(path.join(fixture.stateRoot, 'events.jsonl'))).map(
      (entry) => entry.event,
    );
    expect(events).toEqual(
      expect.arrayContaining([
        'standing.created',
        'standing.started',
        'standing.said',
        'standing.stopped',
        'standing.resumed',
        'standing.deleted',
        'delivery.delivered',
      ]),
    );
  });

  it('a 100 KB brief reaches the agent whole, after the boot directive, without going through argv', async () => {
    fixture = await createServeFixture();
    await fixture.start();
    const brief = `${'Watch the builds and report anything red. '.repeat(2_500)}END-OF-BRIEF`;
    expect(Buffer.byteLength(brief)).toBeGreaterThan(100_000);
    const { writeFile } = await import('node:fs/promises');
    const briefFile = path.join(fixture.dir, 'brief.md');
    await writeFile(briefFile, brief);
    const created = await fixture.cli(['standing', 'create', 'big', '--prompt-file', briefFile]);
    expect(created.exitCode, created.stderr).toBe(0);
    const [boot] = await eventually(
      async () => {
        const lines = await prompts(fixture);
        return lines.length >= 1 ? lines : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(boot?.prompt.startsWith('[the-loop]\n\nYou are the standing session `big`')).toBe(true);
    expect(boot?.prompt.endsWith(`\n\n${brief}`)).toBe(true);
    const launch = (await starts(fixture)).at(-1);
    expect(JSON.stringify(launch?.argv)).not.toContain('Watch the builds');
  });

  it('refuses clearly, with exit codes and remedies', async () => {
    fixture = await createServeFixture(({ dir }) => ({
      standing: {
        autoStart: false,
        allowedRoots: ['work'],
        sessions: [{ name: 'declared', harness: 'shell', cwd: dir, autoStart: false }],
      },
    }));
    await fixture.start();

    const cases: Array<{ args: string[]; exit: number; message: RegExp }> = [
      {
        args: ['standing', 'say', 'nobody', 'hi'],
        exit: 1,
        message: /the-loop standing create nobody/,
      },
      {
        args: ['standing', 'say', 'declared', 'hi'],
        exit: 1,
        message: /the-loop standing start declared/,
      },
      {
        args: ['standing', 'delete', 'declared'],
        exit: 1,
        message: /standing\.sessions\[0\].*the-loop standing stop declared/s,
      },
      { args: ['standing', 'create', 'declared'], exit: 1, message: /already declared/ },
      {
        args: ['standing', 'create', 'x', '--harness', 'nope'],
        exit: 1,
        message: /not configured.*fake/s,
      },
      {
        args: ['standing', 'create', 'x', '--cwd', '/'],
        exit: 1,
        message: /outside standing\.allowedRoots/,
      },
      { args: ['standing', 'create', 'Bad_Name'], exit: 2, message: /not a valid name/ },
      { args: ['standing', 'get', 'abc\n'], exit: 2, message: /not a valid name/ },
      { args: ['standing', 'start', 'ghost'], exit: 1, message: /no standing session `ghost`/ },
    ];
    for (const entry of cases) {
      const result = await fixture.cli(entry.args);
      expect({ args: entry.args, exit: result.exitCode }).toEqual({
        args: entry.args,
        exit: entry.exit,
      });
      expect(result.stderr).toMatch(entry.message);
    }

    await fixture.cli(['standing', 'create', 'twice', '--no-start']);
    const taken = await fixture.cli(['standing', 'create', 'twice']);
    expect(taken.exitCode).toBe(1);
    expect(taken.stderr).toMatch(/already exists.*the-loop standing delete twice/s);
  });

  it('never adopts, kills or types into a live tmux session with our name that is not ours', async () => {
    fixture = await createServeFixture();
    await fixture.start();
    const { execa } = await import('execa');
    await execa('tmux', [
      '-L',
      fixture.socket,
      'new-session',
      '-d',
      '-s',
      'loop-standing-squat',
      '--',
      'cat',
    ]);
    const created = await fixture.cli(['standing', 'create', 'squat']);
    expect(created.exitCode).toBe(1);
    // The remedy names the server the session is on (tmux.socket is set here; §17).
    expect(created.stderr).toContain(`tmux -L ${fixture.socket} attach -r -t`);
    const listed = await execa('tmux', [
      '-L',
      fixture.socket,
      'list-sessions',
      '-F',
      '#{session_name}',
    ]);
    expect(listed.stdout).toContain('loop-standing-squat');
  });

  it('two concurrent starts of one name produce one harness process', async () => {
    fixture = await createServeFixture();
    await fixture.start();
    await fixture.cli(['standing', 'create', 'once', '--no-start']);
    const results = await Promise.all([
      fixture.cli(['standing', 'start', 'once']),
      fixture.cli(['standing', 'start', 'once']),
      fixture.cli(['standing', 'start', 'once']),
    ]);
    expect(results.map((result) => result.exitCode)).toEqual([0, 0, 0]);
    const outcomes = results.map((result) =>
      /already-running/.test(result.stdout) ? 'already' : 'started',
    );
    expect(outcomes.filter((outcome) => outcome === 'started')).toHaveLength(1);
    await eventually(async () => (await starts(fixture)).length >= 1);
    expect(await starts(fixture)).toHaveLength(1);
  });

  it('serve killed with SIGKILL and started again finds its sessions running and says at once', async () => {
    fixture = await createServeFixture();
    await fixture.start();
    await fixture.cli(['standing', 'create', 'durable']);
    await eventually(async () => (await prompts(fixture)).length >= 1);
    const before = await readFile(path.join(fixture.stateRoot, 'standing', 'durable.json'), 'utf8');

    await fixture.kill('SIGKILL');
    await fixture.start();

    const listed = JSON.parse((await fixture.cli(['standing', 'list', '--json'])).stdout) as Array<{
      name: string;
      status: string;
    }>;
    expect(listed).toEqual([expect.objectContaining({ name: 'durable', status: 'running' })]);
    expect(await readFile(path.join(fixture.stateRoot, 'standing', 'durable.json'), 'utf8')).toBe(
      before,
    );
    const said = await fixture.cli(['standing', 'say', 'durable', 'still there?']);
    expect(said.exitCode, said.stderr).toBe(0);
    await eventually(async () =>
      (await userPrompts(fixture)).some((line) => line.prompt.endsWith('still there?')),
    );
    expect(await starts(fixture)).toHaveLength(1);
  });

  it('a say sent right after start is delivered once the harness is ready', async () => {
    fixture = await createServeFixture(({ agentHome }) => ({
      harnesses: {
        slow: {
          kind: 'claude',
          command: 'env',
          args: [
            `FAKE_AGENT_HOME=${agentHome}`,
            'FAKE_AGENT_STARTUP_MS=1500',
            process.execPath,
            path.resolve('test/fakes/fake-agent.mjs'),
          ],
        },
      },
      defaults: { harness: 'slow', cwd: 'work' },
    }));
    await fixture.start();
    const created = await fixture.cli(['standing', 'create', 'slowpoke']);
    expect(created.exitCode, created.stderr).toBe(0);
    const said = await fixture.cli(['standing', 'say', 'slowpoke', 'are you up?']);
    expect(said.exitCode, said.stderr).toBe(0);
    const lines = await eventually(async () => {
      const seen = await prompts(fixture);
      return seen.length >= 2 ? seen : undefined;
    });
    expect(lines.map((line) => line.prompt.split('\n')[0])).toEqual([
      '[the-loop]',
      '[cli · operator]',
    ]);
    expect(lines[1]?.prompt).toMatch(/are you up\?$/);
  });

  it('the agent answers with the-loop post, speaking only as itself', async () => {
    fixture = await createServeFixture(() => ({ defaults: { harness: 'shell', cwd: 'work' } }));
    await fixture.start();
    await fixture.cli(['standing', 'create', 'sh']);
    // Plain `the-loop`: the session's PATH leads to this checkout's bin/.
    const said = await fixture.cli(['standing', 'say', 'sh', "the-loop post 'hello people'"]);
    expect(said.exitCode, said.stderr).toBe(0);
    const posted = await eventually(async () => {
      const events = await readEvents(path.join(fixture.stateRoot, 'events.jsonl'));
      return events.find((entry) => entry.event === 'agent.posted');
    });
    expect(posted).toMatchObject({ ref: 'standing:sh', kind: 'reply' });

    const forged = await fixture.cli(['post', 'pretending'], {
      env: {
        THE_LOOP_SESSION_TOKEN: 'not-a-real-token',
        THE_LOOP_SOCKET: path.join(fixture.stateRoot, 'control.sock'),
      },
    });
    expect(forged.exitCode).toBe(1);
    expect(forged.stderr).toMatch(/only speak as itself/);
  });

  it('status reports services and exits 1 when an auto-start session is down', async () => {
    fixture = await createServeFixture();
    await fixture.start();
    await fixture.cli(['standing', 'create', 'watch']);
    const healthy = await fixture.cli(['status']);
    expect(healthy.exitCode, healthy.stdout + healthy.stderr).toBe(0);
    await fixture.cli(['standing', 'stop', 'watch']);
    const down = await fixture.cli(['status']);
    expect(down.exitCode).toBe(1);
    expect(down.stdout + down.stderr).toMatch(/the-loop standing start watch/);
  });

  it('leaves sessions running when serve stops, and a client says how to start serve', async () => {
    fixture = await createServeFixture();
    await fixture.start();
    await fixture.cli(['standing', 'create', 'keeper']);
    expect(await fixture.kill('SIGTERM')).toBe(0);
    const { execa } = await import('execa');
    const listed = await execa('tmux', [
      '-L',
      fixture.socket,
      'list-sessions',
      '-F',
      '#{session_name}',
    ]);
    expect(listed.stdout).toContain('loop-standing-keeper');
    const client = await fixture.cli(['standing', 'list']);
    expect(client.exitCode).toBe(1);
    expect(client.stderr).toMatch(/the-loop serve/);
  });
  describe('an agent that, like Claude Code, reads an Enter within 100 ms of a paste as a newline', () => {
    const claudeLike = (delivery: Record<string, number>, settleMs = 100) =>
      createServeFixture(({ agentHome }) => ({
        harnesses: {
          fake: {
            kind: 'claude',
            command: 'env',
            args: [
              `FAKE_AGENT_HOME=${agentHome}`,
              `FAKE_AGENT_PASTE_SETTLE_MS=${settleMs}`,
              process.execPath,
              path.resolve('test/fakes/fake-agent.mjs'),
            ],
          },
        },
        delivery: { readyTimeoutMs: 15_000, confirmTimeoutMs: 3_000, ...delivery },
      }));
    const absorbed = async (fixture: ServeFixture) =>
      (await jsonLines<{ event: string }>(path.join(fixture.agentHome, 'events.jsonl'))).filter(
        (line) => line.event === 'enter_absorbed',
      ).length;

    // Enter goes as soon as the box shows the paste, usually inside this agent's 100 ms window, so
    // a first Enter is lost and the one pressed after confirmTimeoutMs counts (how many depends on
    // scheduling): the messages must still arrive whole, once each and in order. The absorbing
    // itself is checked in the fake agent's reader tests.
    it('gets each message whole, once and in order when Enter comes inside the agent window', async () => {
      fixture = await claudeLike({ confirmTimeoutMs: 1_000 });
      await fixture.start();
      expect((await fixture.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
      for (const [turn, text] of ['first', 'second'].entries()) {
        await waitForTurns(fixture, 'standing:sup', turn + 1);
        const said = await fixture.cli(['standing', 'say', 'sup', text], { env: { USER: 'ana' } });
        expect(said.exitCode, said.stderr).toBe(0);
        expect(said.stdout).toMatch(/delivered/);
      }
      expect((await userPrompts(fixture)).map((line) => line.prompt)).toEqual([
        '[cli · ana]\n\nfirst',
        '[cli · ana]\n\nsecond',
      ]);
    });

    it('still gets a message whose first Enter came too soon, by pressing Enter again', async () => {
      // A window of a second makes sure the immediate Enter lands in it; the second Enter comes
      // after confirmTimeoutMs (3 s), well after.
      fixture = await claudeLike({ submitDelayMs: 0 }, 1_000);
      await fixture.start();
      expect((await fixture.cli(['standing', 'create', 'sup'])).exitCode).toBe(0);
      await waitForTurns(fixture, 'standing:sup', 1);
      const said = await fixture.cli(['standing', 'say', 'sup', 'late but whole'], {
        env: { USER: 'ana' },
      });
      expect(said.exitCode, said.stderr).toBe(0);
      expect(said.stdout).toMatch(/delivered/);
      expect((await userPrompts(fixture)).map((line) => line.prompt.trim())).toEqual([
        '[cli · ana]\n\nlate but whole',
      ]);
      expect(await absorbed(fixture)).toBeGreaterThan(0);
    });
  });
});
