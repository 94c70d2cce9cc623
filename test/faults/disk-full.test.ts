import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';
import { logged } from './support/serve-log.js';
import { canMountTmpfs, fillUp, sayWhySkipped, smallTmpfs } from './support/small-tmpfs.js';

/** Every non-empty line of the event log that is not one whole JSON object. */
async function brokenLines(stateRoot: string): Promise<string[]> {
  const text = await readFile(path.join(stateRoot, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .filter((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return typeof value !== 'object' || value === null;
      } catch {
        return true;
      }
    });
}

/** Writes `file` until the file system is full (ENOSPC); the data pages are then all taken. */
describe('the event log after a crash cut its last line', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('drops the cut line at start, so the next line is not glued onto it', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await mkdir(serve.stateRoot, { recursive: true, mode: 0o700 });
    const whole = `${JSON.stringify({ ts: new Date().toISOString(), event: 'serve.started' })}\n`;
    await writeFile(path.join(serve.stateRoot, 'events.jsonl'), `${whole}{"ts":"2026-12-01T0`, {
      mode: 0o600,
    });
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'after-crash']);
    expect(created.exitCode, created.stderr).toBe(0);
    await eventually(
      async () => (await readFile(path.join(serve.stateRoot, 'events.jsonl'), 'utf8')).length > 200,
    );
    expect(await brokenLines(serve.stateRoot)).toEqual([]);
    expect(logged(serve, 'events.partial_line_dropped')).toEqual([
      expect.objectContaining({ bytes: 19 }),
    ]);
  }, 60_000);
});

// Filling a disk for real needs a file system of its own: a small tmpfs, which only root may
// mount. Elsewhere these tests are skipped, and say so.
sayWhySkipped('disk-full tests');

describe('a full disk under the state root (a 4 MiB tmpfs)', () => {
  let fixture: ServeFixture | undefined;
  const tmpfs = smallTmpfs();

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
    await tmpfs.unmountAll();
  });

  it.skipIf(!canMountTmpfs)(
    'keeps every event line whole and leaves no tmux/buffer-* file behind',
    async () => {
      fixture = await createServeFixture();
      const serve = fixture;
      await tmpfs.mount(serve.stateRoot, '4m');
      await serve.start();
      const created = await serve.cli(['standing', 'create', 'full']);
      expect(created.exitCode, created.stderr).toBe(0);
      const warm = await serve.cli(['standing', 'say', 'full', 'before the disk fills']);
      expect(warm.exitCode, warm.stderr).toBe(0);

      const filler = path.join(serve.stateRoot, 'filler');
      fillUp(filler, 64 * 1024);
      // Each say writes a scratch file for tmux (which fails) and an event line; those lines fill
      // what is left of the log's last page, and then one is cut midway by a short write.
      // A page holds 4 KiB, and each failed say adds one ~250-byte line: at most 17 to fill it.
      const refused: number[] = [];
      while (logged(serve, 'events.write_failed').length === 0 && refused.length < 40) {
        const said = await serve.cli(['standing', 'say', 'full', `while full ${refused.length}`]);
        refused.push(said.exitCode);
        expect(await readdir(path.join(serve.stateRoot, 'tmux'))).toEqual([]);
      }
      expect(refused.every((code) => code !== 0)).toBe(true);
      expect(logged(serve, 'events.write_failed')).not.toEqual([]);

      await rm(filler);
      const after = await serve.cli(['standing', 'say', 'full', 'after the disk was freed']);
      expect(after.exitCode, after.stderr).toBe(0);
      await eventually(async () =>
        (await agentRecords.bodies(serve)).includes('after the disk was freed'),
      );
      await eventually(() => logged(serve, 'events.log_recovered').length > 0, {
        what: 'events.log_recovered',
      });
      expect(await brokenLines(serve.stateRoot)).toEqual([]);
      expect(await readdir(path.join(serve.stateRoot, 'tmux'))).toEqual([]);
    },
    90_000,
  );
});
