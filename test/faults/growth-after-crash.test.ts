import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { eventsOf, logged } from './support/serve-log.js';

/*
 * Issue 21.7: what a crash leaves behind must not pile up. A SIGKILL during a Slack download leaves
 * a `.part` file; a crash or a bad disk leaves a corrupt tail in the event log. The next serve
 * sweeps the one and numbers its events on past the other.
 */
describe('leftovers of a crash at the next start', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('sweeps .part leftovers and week-old files, and numbers events on past a corrupt tail', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    const files = path.join(serve.stateRoot, 'files', 'loop-standing-alpha');
    await mkdir(files, { recursive: true, mode: 0o700 });
    await writeFile(path.join(files, 'trace.log.0a1b2c3d.part'), 'x'.repeat(64 * 1024));
    await writeFile(path.join(files, 'old.png'), 'old');
    await writeFile(path.join(files, 'today.txt'), 'kept');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    await utimes(path.join(files, 'old.png'), eightDaysAgo, eightDaysAgo);
    const line = (seq: number) =>
      `${JSON.stringify({ ts: new Date().toISOString(), event: 'serve.started', seq })}\n`;
    await writeFile(
      path.join(serve.stateRoot, 'events.jsonl'),
      `${line(41)}${line(42)}\u0000\u0000\u0000garbage from a bad disk\n{"seq": 9000, "ts":`,
    );

    await serve.start();

    expect((await readdir(files)).sort()).toEqual(['today.txt']);
    expect(logged(serve, 'files.swept')).toMatchObject([{ removed: 2 }]);
    const started = (await eventsOf(serve)).filter((event) => event.event === 'serve.started');
    expect(started.at(-1)?.seq).toBe(43);
  });
});
