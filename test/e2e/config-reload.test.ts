import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { readEvents } from '../helpers/read-events.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

type Raw = Record<string, unknown>;

async function editConfig(serve: ServeFixture, change: (raw: Raw) => Raw): Promise<void> {
  const raw = parse(await readFile(serve.configPath, 'utf8')) as Raw;
  await writeFile(serve.configPath, stringify(change(raw)));
}

const withSessions =
  (...sessions: Raw[]) =>
  (raw: Raw): Raw => ({ ...raw, standing: { ...(raw['standing'] as Raw), sessions } });

async function json<T>(serve: ServeFixture, args: string[]): Promise<T> {
  const result = await serve.cli([...args, '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

type Listed = { name: string; source: string; status: string }[];
const list = (serve: ServeFixture) => json<Listed>(serve, ['standing', 'list']);
interface Status {
  readonly services: { name: string; state: string; detail: string }[];
}

const configRow = async (serve: ServeFixture) =>
  (await json<Status>(serve, ['status'])).services.find((row) => row.name === 'config');

const socketExists = (serve: ServeFixture) =>
  access(path.join(serve.stateRoot, 'control.sock')).then(
    () => true,
    () => false,
  );

describe('config reload on a live serve (docs/configuration.md, "Reloading")', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('applies live keys at once, starts an added declared session, and names the restart keys', async () => {
    fixture = await createServeFixture(() => ({
      instance: { name: 'before', scope: { mode: 'open', workItems: [] } },
    }));
    const serve = fixture;
    await serve.start();

    await editConfig(serve, (raw) =>
      withSessions({ name: 'fresh', prompt: 'hello' })({
        ...raw,
        instance: { name: 'after', scope: { mode: 'locked', workItems: [] } },
      }),
    );
    const reloaded = await serve.cli(['reload', '--json']);
    expect(reloaded.exitCode, reloaded.stderr).toBe(0);
    const answer = JSON.parse(reloaded.stdout) as Raw;
    expect(answer).toEqual({
      applied: ['instance.scope.mode', 'standing.sessions'],
      needsRestart: ['instance.name'],
      sessions: {
        added: ['fresh'],
        undeclared: [],
        started: [{ name: 'fresh', outcome: 'started' }],
      },
    });

    // The scope is live; the name keeps its running value until a restart.
    const instance = await json<{ name: string; scope: { mode: string } }>(serve, ['instance']);
    expect(instance).toMatchObject({ name: 'before', scope: { mode: 'locked' } });
    expect(await list(serve)).toMatchObject([
      { name: 'fresh', source: 'declared', status: 'running' },
    ]);

    const events = await readEvents(path.join(serve.stateRoot, 'events.jsonl'));
    expect(events.filter((event) => event.event === 'config.reloaded')).toMatchObject([
      { changed: ['instance.scope.mode', 'standing.sessions'], needsRestart: ['instance.name'] },
    ]);
    expect((await configRow(serve))?.state).toBe('ok');

    // The text answer names the same keys.
    const again = await serve.cli(['reload']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/needs a restart of serve: instance\.name/);
  }, 60_000);

  it('an invalid file changes nothing: exit 2 naming the key, the log and status say so', async () => {
    fixture = await createServeFixture(() => ({
      instance: { name: 'steady', scope: { mode: 'open', workItems: [] } },
    }));
    const serve = fixture;
    await serve.start();

    await editConfig(serve, (raw) =>
      withSessions({ name: 'never' })({
        ...raw,
        instance: { name: 'steady', scope: { mode: 'locked', workItems: [] } },
        standing: { ...(raw['standing'] as Raw), autoStart: 'yes' },
      }),
    );
    const refused = await serve.cli(['reload']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/standing\.autoStart/);
    expect(refused.stderr).toMatch(/nothing was applied/);

    // Nothing half-applied: the scope, the sessions.
    const instance = await json<{ scope: { mode: string } }>(serve, ['instance']);
    expect(instance.scope.mode).toBe('open');
    expect(await list(serve)).toEqual([]);
    const row = await configRow(serve);
    expect(row?.state).toBe('degraded');
    expect(row?.detail).toMatch(/last reload failed .*standing\.autoStart/);
    const events = await readEvents(path.join(serve.stateRoot, 'events.jsonl'));
    expect(events.filter((event) => event.event === 'config.reload_failed')).toMatchObject([
      { keys: ['standing.autoStart'] },
    ]);
    expect(serve.output()).toMatch(/"event":"config\.reload_failed"/);

    // A file that is not even YAML any more: reload still reaches serve (2, not "not running"),
    // and so does status.
    await writeFile(
      serve.configPath,
      `${await readFile(serve.configPath, 'utf8')}\nslack: [oops\n`,
    );
    const broken = await serve.cli(['reload', '--json']);
    expect(broken.exitCode).toBe(2);
    expect(JSON.parse(broken.stdout)).toMatchObject({ code: 'config_invalid' });
    expect((await configRow(serve))?.detail).toMatch(/YAML error/);

    // Fixed, it applies, and status is clean again.
    await writeFile(serve.configPath, stringify(await fixtureConfig(serve)));
    const fixed = await serve.cli(['reload']);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect((await configRow(serve))?.state).toBe('ok');
  }, 60_000);

  it('a session the file no longer declares runs on as undeclared; stop forgets it, start is refused', async () => {
    fixture = await createServeFixture((paths) =>
      withSessions({ name: 'keeper', prompt: 'hi' })({
        standing: { autoStart: true, allowedRoots: [path.join(paths.dir, 'work')] },
      }),
    );
    const serve = fixture;
    await serve.start();
    await eventually(async () => (await list(serve))[0]?.status === 'running', {
      timeoutMs: 15_000,
      what: 'keeper to run',
    });

    await editConfig(serve, withSessions());
    const reloaded = await json<Raw>(serve, ['reload']);
    expect(reloaded).toMatchObject({ sessions: { added: [], undeclared: ['keeper'] } });
    expect(await list(serve)).toMatchObject([
      { name: 'keeper', source: 'undeclared', status: 'running' },
    ]);
    const said = await serve.cli(['standing', 'say', 'keeper', 'still there?']);
    expect(said.exitCode, said.stderr).toBe(0);

    const restart = await serve.cli(['standing', 'restart', 'keeper']);
    expect(restart.exitCode).toBe(1);
    expect(restart.stderr).toMatch(/no longer declared/);
    const stopped = await serve.cli(['standing', 'stop', 'keeper']);
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    expect(await list(serve)).toEqual([]);
    const start = await serve.cli(['standing', 'start', 'keeper']);
    expect(start.exitCode).toBe(1);
    expect(start.stderr).toMatch(/no standing session `keeper`/);
  }, 60_000);

  it('SIGINT stops cleanly and removes the socket', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    expect(await serve.kill('SIGINT'), serve.output()).toBe(0);
    expect(await socketExists(serve)).toBe(false);
    expect(serve.output()).toMatch(/SIGINT, stopping/);
  }, 60_000);

  it('SIGHUP reloads and keeps serving; SIGTERM stops cleanly and removes the socket', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();

    await editConfig(serve, withSessions({ name: 'hup', prompt: 'hi' }));
    serve.signal('SIGHUP');
    await eventually(
      async () =>
        (await list(serve)).some(
          (session) => session.name === 'hup' && session.status === 'running',
        ),
      { timeoutMs: 15_000, what: 'the SIGHUP reload to start `hup`' },
    );
    expect(serve.output()).toMatch(/SIGHUP, reloading the config/);
    expect(serve.output()).toMatch(/config reloaded; applied|config reloaded: standing\.sessions/);

    // A refused file on SIGHUP: serve keeps going, status says why.
    await writeFile(serve.configPath, 'standing: { autoStart: maybe }\n');
    serve.signal('SIGHUP');
    await eventually(async () => (await configRow(serve))?.state === 'degraded', {
      timeoutMs: 10_000,
      what: 'status to show the refused reload',
    });
    expect((await serve.cli(['status'])).stdout).toMatch(/standing\.autoStart/);

    expect(await serve.kill('SIGTERM')).toBe(0);
    expect(await socketExists(serve)).toBe(false);

    const stopped = await serve.cli(['reload']);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stderr).toMatch(/not running/);
  }, 60_000);
});

/** A valid config for the fixture again, after the test broke it. */
async function fixtureConfig(serve: ServeFixture): Promise<Raw> {
  return {
    state: { root: 'state' },
    tmux: { socket: serve.socket },
    harnesses: { fake: { kind: 'command', command: 'sh' } },
    defaults: { harness: 'fake', cwd: 'work' },
    standing: { autoStart: false, allowedRoots: ['work'], sessions: [] },
    slack: { enabled: false },
  };
}
