import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServeFixture,
  shellHarness,
  tmuxSessions,
  type ServeFixture,
} from '../helpers/run-serve.js';
import { eventsOf } from './support/serve-log.js';
import { canMountTmpfs, sayWhySkipped, smallTmpfs } from './support/small-tmpfs.js';

// The record write must fail after the spawn and not before: a one-page tmpfs under
// `standing/` takes the first write of a record (create's `stopped` one) and has no page left
// for the second (the `running` one, written after the spawn). Only root may mount it.
sayWhySkipped('failed-start-undo (full disk) test');

describe('a start whose record cannot be written', () => {
  let fixture: ServeFixture | undefined;
  const tmpfs = smallTmpfs();

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
    await tmpfs.unmountAll();
  });

  it.skipIf(!canMountTmpfs)(
    'kills the session it spawned, so no orphan blocks the next create',
    async () => {
      fixture = await createServeFixture(shellHarness);
      const serve = fixture;
      const standingDir = path.join(serve.stateRoot, 'standing');
      await tmpfs.mount(standingDir, '4k');
      await serve.start();

      const failed = await serve.cli(['standing', 'create', 'orphan']);
      expect(failed.exitCode).toBe(1);
      expect(await tmuxSessions(serve)).not.toContain('loop-standing-orphan');
      expect(failed.stderr).toMatch(/record could not be written \(ENOSPC\)/);
      expect(failed.stderr).toMatch(/free space under the state root/);
      const spawnFailed = (await eventsOf(serve)).filter(
        (entry) => entry.event === 'standing.spawn_failed',
      );
      expect(spawnFailed).toEqual([
        expect.objectContaining({ name: 'orphan', code: 'record_write_failed' }),
      ]);

      // With room again the same name is free: nothing of the failed create is left in the way.
      await tmpfs.unmount(standingDir);
      const again = await serve.cli(['standing', 'create', 'orphan']);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(await tmuxSessions(serve)).toContain('loop-standing-orphan');
    },
    60_000,
  );
});

describe('a live session of ours whose record has no token', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('is refused as not healthy, naming restart, and restart makes it whole', async () => {
    fixture = await createServeFixture(shellHarness);
    const serve = fixture;
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'lost', '--no-start']);
    expect(created.exitCode, created.stderr).toBe(0);
    // What serve leaves when it dies between the spawn and the record write: a session with our
    // tag under the name, and a record without its token.
    const { id } = JSON.parse(
      await readFile(path.join(serve.stateRoot, 'instance.json'), 'utf8'),
    ) as { id: string };
    const tmux = (...args: string[]) => execa('tmux', ['-L', serve.socket, ...args]);
    await tmux('new-session', '-d', '-s', 'loop-standing-lost', 'sh');
    // (`set-option -t` does not take the `=name` form; the name is unique on this server.)
    await tmux('set-option', '-t', 'loop-standing-lost', '@the-loop-owner', id);

    const refused = await serve.cli(['standing', 'start', 'lost']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/no session token/);
    expect(refused.stderr).toMatch(/the-loop standing restart lost/);
    const record = JSON.parse(
      await readFile(path.join(serve.stateRoot, 'standing', 'lost.json'), 'utf8'),
    ) as { status: string; sessionToken?: string };
    expect(record.status).toBe('stopped');

    const restarted = await serve.cli(['standing', 'restart', 'lost']);
    expect(restarted.exitCode, restarted.stderr).toBe(0);
    const after = JSON.parse(
      await readFile(path.join(serve.stateRoot, 'standing', 'lost.json'), 'utf8'),
    ) as { status: string; sessionToken?: string };
    expect(after.status).toBe('running');
    expect(after.sessionToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  }, 60_000);
});
