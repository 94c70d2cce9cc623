import { lstat, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullFlow, type FullFlow } from './support/start-full-flow.js';

/**
 * One full run with every surface on, then two audits of what it left: the permissions of
 * everything under the state root, and every byte serve wrote (its output and its event log)
 * searched for every secret it was given or handed out.
 */
describe('after a full end-to-end flow at debug level', () => {
  let flow: FullFlow;

  beforeAll(async () => {
    flow = await startFullFlow();
  }, 90_000);

  afterAll(async () => {
    await flow?.dispose();
  });

  it('the control socket is 0600, the state root and its folders 0700, every record file 0600', async () => {
    const root = flow.fixture.stateRoot;
    expect((await stat(root)).mode & 0o777).toBe(0o700);
    const socket = await lstat(path.join(root, 'control.sock'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    const modes = await Promise.all(
      entries.map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return {
          file: path.relative(root, file),
          dir: entry.isDirectory(),
          mode: (await lstat(file)).mode & 0o777,
        };
      }),
    );
    const wrong = modes.filter((entry) => entry.mode !== (entry.dir ? 0o700 : 0o600));
    expect(wrong, 'entries with the wrong mode').toEqual([]);
    // The audit saw what the flow recorded, not an empty folder.
    const files = modes.filter((entry) => !entry.dir).map((entry) => entry.file);
    for (const expected of [
      'events.jsonl',
      'standing/agent.json',
      'standing/shell.json',
      'instance.json',
    ]) {
      expect(files).toContain(expected);
    }
    for (const folder of ['slack/threads/', 'workitems/', 'dedupe/', 'harness/']) {
      expect(
        files.some((file) => file.startsWith(folder)),
        `a file under ${folder}`,
      ).toBe(true);
    }
  });

  it('no token or secret appears in serve output or in events.jsonl', async () => {
    const output = flow.fixture.output();
    const events = await readFile(path.join(flow.fixture.stateRoot, 'events.jsonl'), 'utf8');
    // The run was verbose enough for the audit to mean something.
    expect(output.split('\n').filter((line) => line.includes('"level":20')).length).toBeGreaterThan(
      20,
    );
    expect(events).toContain('agent.posted');
    expect(
      Object.keys(flow.secrets).filter((name) => name.startsWith('session token')),
    ).toHaveLength(3);
    const leaks = Object.entries(flow.secrets).flatMap(([name, value]) => [
      ...(output.includes(value) ? [`${name} in serve output`] : []),
      ...(events.includes(value) ? [`${name} in events.jsonl`] : []),
    ]);
    expect(leaks).toEqual([]);
  });
});
