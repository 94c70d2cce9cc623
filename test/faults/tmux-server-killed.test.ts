import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { agentRecords } from './support/agent-records.js';
import { eventsOf } from './support/serve-log.js';

interface Listed {
  readonly name: string;
  readonly status: string;
  readonly tmux: string;
  readonly conversationId?: string;
}

describe('the tmux server killed under running sessions', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
  });

  it('shows them not running, refuses say naming the remedy, and start resumes each conversation', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    for (const name of ['alpha', 'beta']) {
      const created = await serve.cli(['standing', 'create', name]);
      expect(created.exitCode, created.stderr).toBe(0);
    }
    const said = await serve.cli(['standing', 'say', 'alpha', 'before the crash']);
    expect(said.exitCode, said.stderr).toBe(0);
    const before = JSON.parse((await serve.cli(['standing', 'list', '--json'])).stdout) as Listed[];
    expect(before.map((session) => [session.name, session.status])).toEqual([
      ['alpha', 'running'],
      ['beta', 'running'],
    ]);
    const conversations = new Map(before.map((session) => [session.name, session.conversationId]));

    const killed = await execa('tmux', ['-L', serve.socket, 'kill-server'], { reject: false });
    expect(killed.exitCode).toBe(0);

    const listed = await serve.cli(['standing', 'list', '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const after = JSON.parse(listed.stdout) as Listed[];
    expect(after.map((session) => [session.name, session.status, session.tmux])).toEqual([
      ['alpha', 'stopped', 'absent'],
      ['beta', 'stopped', 'absent'],
    ]);

    const refused = await serve.cli(['standing', 'say', 'alpha', 'anyone there?']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/the-loop standing start alpha/);
    expect(refused.stderr).not.toMatch(/at .*\.js:\d+/);
    // The daemon is still there to be asked.
    expect((await serve.cli(['status', '--json'])).exitCode).toBe(1);

    const started = await serve.cli(['standing', 'start']);
    expect(started.exitCode, started.stderr).toBe(0);
    const launches = await eventually(
      async () => {
        const all = await agentRecords.launches(serve);
        return all.length >= 4 ? all : undefined;
      },
      { what: 'both sessions to be launched again' },
    );
    for (const [name, conversation] of conversations) {
      expect(conversation, `${name} has a conversation id`).toMatch(/^[0-9a-f-]{36}$/);
      expect(
        launches.slice(2).some((launch) => {
          const at = launch.argv.indexOf('--resume');
          return at >= 0 && launch.argv[at + 1] === conversation;
        }),
        `${name} relaunched with --resume ${conversation}`,
      ).toBe(true);
    }
    const resumed = (await eventsOf(serve))
      .filter((entry) => entry.event === 'standing.resumed')
      .map((entry) => entry['name']);
    expect(resumed.sort()).toEqual(['alpha', 'beta']);

    const again = await serve.cli(['standing', 'say', 'alpha', 'after the resume']);
    expect(again.exitCode, again.stderr).toBe(0);
    await eventually(async () => (await agentRecords.bodies(serve)).includes('after the resume'));
    expect(await agentRecords.bodies(serve)).toEqual(['before the crash', 'after the resume']);
  });
});
