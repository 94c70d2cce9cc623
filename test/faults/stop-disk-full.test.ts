import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { errnoCode } from '../../src/state/errno-code.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

interface Recorded {
  readonly status: string;
  readonly sessionToken?: string;
}

/** Writes `file` until the file system is full (ENOSPC). */
function fillUp(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4 * 1024, 0x61);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if (errnoCode(error) !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

// The records' folder alone is a small tmpfs (root only), so the stop's kill and the rest of
// serve keep working while the record write fails.
const isRoot = process.getuid?.() === 0;
if (!isRoot) {
  process.stdout.write('stop-disk-full test skipped: mounting a tmpfs needs root\n');
}

describe('stop when the record cannot be written (a full disk)', () => {
  let fixture: ServeFixture | undefined;
  let mounted: string | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
    if (mounted) await execa('umount', ['-l', mounted], { reject: false });
    mounted = undefined;
  });

  it.skipIf(!isRoot)(
    'stops the session, says the record was not written, and its token no longer speaks',
    async () => {
      fixture = await createServeFixture(() => ({
        harnesses: { shell: { kind: 'command', command: 'sh' } },
        defaults: { harness: 'shell', cwd: 'work' },
      }));
      const serve = fixture;
      const standingDir = path.join(serve.stateRoot, 'standing');
      await mkdir(standingDir, { recursive: true, mode: 0o700 });
      await execa('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', standingDir]);
      mounted = standingDir;
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
      fillUp(filler);
      const stopped = await serve.cli(['standing', 'stop', 'full']);
      expect(stopped.exitCode).toBe(1);
      expect(stopped.stderr).toMatch(/is stopped, but .*record could not be written \(ENOSPC\)/);
      expect(stopped.stderr).toMatch(/free space under the state root/);
      const sessions = await execa('tmux', ['-L', serve.socket, 'list-sessions', '-F', '#S'], {
        reject: false,
      });
      expect(sessions.stdout.split('\n')).not.toContain('loop-standing-full');
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
