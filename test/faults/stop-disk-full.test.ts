import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServeFixture,
  shellHarness,
  tmuxSessions,
  type ServeFixture,
} from '../helpers/run-serve.js';
import { canMountTmpfs, fillUp, sayWhySkipped, smallTmpfs } from './support/small-tmpfs.js';

interface Recorded {
  readonly status: string;
  readonly sessionToken?: string;
}

// The records' folder alone is a small tmpfs (root only), so the stop's kill and the rest of
// serve keep working while the record write fails.
sayWhySkipped('stop-disk-full test');

describe('stop when the record cannot be written (a full disk)', () => {
  let fixture: ServeFixture | undefined;
  const tmpfs = smallTmpfs();

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
    await tmpfs.unmountAll();
  });

  it.skipIf(!canMountTmpfs)(
    'stops the session, says the record was not written, and its token no longer speaks',
    async () => {
      fixture = await createServeFixture(shellHarness);
      const serve = fixture;
      const standingDir = path.join(serve.stateRoot, 'standing');
      await tmpfs.mount(standingDir, '64k');
      await serve.start();
      const created = await serve.cli(['standing', 'create', 'full']);
      expect(created.exitCode, created.stderr).toBe(0);
      const recordFile = path.join(standingDir, 'full.json');
      const { sessionToken } = JSON.parse(await readFile(recordFile, 'utf8')) as Recorded;
      if (!sessionToken) throw new Error('the running record has no token');
      const post = (text: string) =>
        serve.cli(['post', text], {
          env: {
            THE_LOOP_SESSION_TOKEN: sessionToken,
            THE_LOOP_SOCKET: path.join(serve.stateRoot, 'control.sock'),
          },
        });
      const refusal = /belongs to no running session/;
      expect((await post('while running')).stderr).not.toMatch(refusal);

      const filler = path.join(standingDir, 'filler');
      fillUp(filler, 4 * 1024);
      const stopped = await serve.cli(['standing', 'stop', 'full']);
      expect(stopped.exitCode).toBe(1);
      expect(stopped.stderr).toMatch(/is stopped, but .*record could not be written \(ENOSPC\)/);
      expect(stopped.stderr).toMatch(/free space under the state root/);
      expect(await tmuxSessions(serve)).not.toContain('loop-standing-full');
      // The record still says running with the token, but the token is dead: memory and tmux
      // are the truth, the stale file is not.
      expect((JSON.parse(await readFile(recordFile, 'utf8')) as Recorded).status).toBe('running');
      expect((await post('after the stop')).stderr).toMatch(refusal);
      const listed = await serve.cli(['standing', 'list', '--json']);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ name: 'full', status: 'stopped' }),
      ]);

      // Room again: stop once more and the record says what happened.
      await rm(filler);
      const again = await serve.cli(['standing', 'stop', 'full']);
      expect(again.exitCode, again.stderr).toBe(0);
      const record = JSON.parse(await readFile(recordFile, 'utf8')) as Recorded;
      expect(record.status).toBe('stopped');
      expect(record.sessionToken).toBeUndefined();
    },
    60_000,
  );
});
