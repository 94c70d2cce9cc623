import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { binPath, createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';
import { logged } from './support/serve-log.js';
import { makeFifo, releaseFifos, within } from './support/special-files.js';

/** The pid of the fixture's serve, found by its config path (unique to the test). */
async function servePid(serve: ServeFixture): Promise<number> {
  const found = await execa('pgrep', ['-f', `serve --config ${serve.configPath}`]);
  const pid = Number(found.stdout.trim().split('\n')[0]);
  expect(pid).toBeGreaterThan(0);
  return pid;
}

const stuckStopScript = path.resolve('test/faults/support/stuck-stop.ts');

describe('FIFOs and other special files in the state root', () => {
  let fixture: ServeFixture | undefined;
  let fifos: string[] = [];

  afterEach(async () => {
    await releaseFifos(fifos);
    await fixture?.dispose();
    fixture = undefined;
    fifos = [];
  });

  it('skips a FIFO record with a warning; list, create and say still answer', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    for (const folder of ['standing', 'workitems', 'inbox/slack', 'slack/threads']) {
      await mkdir(path.join(serve.stateRoot, folder), { recursive: true, mode: 0o700 });
    }
    fifos = [
      path.join(serve.stateRoot, 'standing', 'x.json'),
      path.join(serve.stateRoot, 'workitems', 'github-octo-repo-1.json'),
      path.join(serve.stateRoot, 'slack', 'threads', 'c0ops-1.2.json'),
    ];
    for (const fifo of fifos) await makeFifo(fifo);
    await serve.start();

    const listed = await within(15_000, serve.cli(['standing', 'list', '--json']));
    expect(listed, 'list hung').not.toBe('timedOut');
    if (listed === 'timedOut') return;
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    const got = await within(15_000, serve.cli(['standing', 'get', 'x']));
    expect(got === 'timedOut' ? 'timedOut' : got.exitCode).toBe(1);
    const created = await within(15_000, serve.cli(['standing', 'create', 'fine']));
    expect(created === 'timedOut' ? 'timedOut' : created.exitCode).toBe(0);
    const said = await within(15_000, serve.cli(['standing', 'say', 'fine', 'hello']));
    expect(said === 'timedOut' ? 'timedOut' : said.exitCode).toBe(0);
    await eventually(async () => (await agentRecords.bodies(serve)).includes('hello'), {
      timeoutMs: 15_000,
      what: 'the message to reach the agent',
    });
    const warned = logged(serve, 'state.file_not_regular');
    expect(warned.map((entry) => entry['file'])).toContain(fifos[0]);
    expect(warned[0]).toMatchObject({ fileType: 'FIFO' });
  }, 90_000);

  it('refuses to start on a FIFO events.jsonl, naming the file', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await mkdir(serve.stateRoot, { recursive: true, mode: 0o700 });
    const log = path.join(serve.stateRoot, 'events.jsonl');
    fifos = [log];
    await makeFifo(log);
    const run = execa(process.execPath, [binPath, 'serve', '--config', serve.configPath], {
      reject: false,
      timeout: 20_000,
      env: { SLACK_BOT_TOKEN: '', SLACK_APP_TOKEN: '', GITHUB_TOKEN: '' },
    });
    const result = await run;
    expect(result.timedOut, 'serve started on a FIFO event log').toBe(false);
    expect(result.exitCode).not.toBe(0);
    expect(String(result.stderr)).toContain(log);
    expect(String(result.stderr)).toMatch(/FIFO/);
  }, 30_000);

  it('keeps answering and stops on the first SIGTERM when events.jsonl turns into a FIFO', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    const log = path.join(serve.stateRoot, 'events.jsonl');
    await rm(log, { force: true });
    fifos = [log];
    await makeFifo(log);
    const created = await within(15_000, serve.cli(['standing', 'create', 'busy']));
    expect(created === 'timedOut' ? 'timedOut' : created.exitCode).toBe(0);
    const pid = await servePid(serve);
    const exited = serve.kill('SIGTERM');
    // Give the first signal five seconds; then the second must end it whatever is stuck.
    const first = await within(5_000, exited);
    if (first === 'timedOut') process.kill(pid, 'SIGTERM');
    const stopped = await within(10_000, exited);
    expect(first, 'serve did not stop on the first SIGTERM').not.toBe('timedOut');
    expect(stopped, 'serve did not stop on the second SIGTERM either').not.toBe('timedOut');
    if (stopped === 'timedOut') process.kill(pid, 'SIGKILL');
    expect(logged(serve, 'events.write_failed')).not.toEqual([]);
  }, 60_000);

  it('ends at once on a second SIGTERM even while stopping is stuck in a blocked file open', async () => {
    fixture = await createServeFixture();
    const fifo = path.join(fixture.dir, 'never-written');
    fifos = [fifo];
    await makeFifo(fifo);
    const child = execa(process.execPath, ['--import', 'tsx', stuckStopScript, fifo], {
      reject: false,
      all: true,
    });
    let output = '';
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await eventually(() => output.includes('waiting for a signal'), {
      timeoutMs: 20_000,
      what: 'the stop script to be ready',
    });
    child.kill('SIGTERM');
    await eventually(() => output.includes('stopping'), {
      timeoutMs: 15_000,
      what: 'the first signal to be heard',
    });
    child.kill('SIGTERM');
    const result = await within(10_000, child);
    expect(result, `still running after the second SIGTERM:\n${output}`).not.toBe('timedOut');
    if (result === 'timedOut') {
      child.kill('SIGKILL');
      return;
    }
    expect(result.signal ?? result.exitCode).toMatch(/SIGTERM|143/);
  }, 60_000);
});
