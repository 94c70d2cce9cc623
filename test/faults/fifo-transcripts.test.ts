import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';
import { logged } from './support/serve-log.js';
import { makeFifo, releaseFifos, within } from './support/special-files.js';

describe('a Stop hook whose transcript_path is a FIFO', () => {
  let fixture: ServeFixture | undefined;
  let fifos: string[] = [];

  afterEach(async () => {
    await releaseFifos(fifos);
    await fixture?.dispose();
    fifos = [];
  });

  it('answers at once, reads nothing from it, and leaves say and create working', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'victim']);
    expect(created.exitCode, created.stderr).toBe(0);
    const record = JSON.parse(
      await readFile(path.join(serve.stateRoot, 'standing', 'victim.json'), 'utf8'),
    ) as { sessionToken: string };
    const client = createApiClient({
      socketPath: path.join(serve.stateRoot, 'control.sock'),
      timeoutMs: 10_000,
    });

    // Four, as many as libuv's file pool has threads: one blocked open(2) each would stop all
    // file I/O of serve.
    fifos = ['a', 'b', 'c', 'd'].map((name) => path.join(serve.dir, `transcript-${name}.jsonl`));
    for (const fifo of fifos) await makeFifo(fifo);
    const hooks = await Promise.all(
      fifos.map((fifo) =>
        client.request(
          'POST',
          '/api/v1/hooks/Stop',
          { hook_event_name: 'Stop', transcript_path: fifo },
          { 'X-The-Loop-Session-Token': record.sessionToken },
        ),
      ),
    );
    expect(hooks.map((hook) => hook.status)).toEqual([204, 204, 204, 204]);

    const said = await within(15_000, serve.cli(['standing', 'say', 'victim', 'still there?']));
    expect(said, 'say hung').not.toBe('timedOut');
    expect(said === 'timedOut' ? -1 : said.exitCode).toBe(0);
    const another = await within(15_000, serve.cli(['standing', 'create', 'another']));
    expect(another, 'create hung').not.toBe('timedOut');
    expect(another === 'timedOut' ? -1 : another.exitCode).toBe(0);
    await eventually(async () => (await agentRecords.bodies(serve)).includes('still there?'), {
      timeoutMs: 15_000,
      what: 'the message to reach the agent',
    });
    // Each refused transcript is reported, so the operator can see why no reply was posted.
    await eventually(() => logged(serve, 'hook.transcript_unreadable').length === 4, {
      timeoutMs: 10_000,
      what: 'four hook.transcript_unreadable warnings',
    });
  }, 90_000);
});
