import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

const owner = 'faults-owner-0123456789';
const controlName = `loop-control-${owner.slice(0, 12)}`;

describe("a session already named like serve's control session but not tagged as ours", () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('is never attached to nor killed: serve makes a fresh tagged one and ends only that', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    const tmux = (...args: string[]) =>
      execa('tmux', ['-L', serve.socket, '-f', '/dev/null', ...args], { reject: false });
    await mkdir(serve.stateRoot, { recursive: true, mode: 0o700 });
    await writeFile(path.join(serve.stateRoot, 'instance.json'), JSON.stringify({ id: owner }), {
      mode: 0o600,
    });
    // Someone else's session, with the very name serve would give its own control session.
    const made = await tmux('new-session', '-d', '-s', controlName, '--', 'sleep', '1000');
    expect(made.exitCode, String(made.stderr)).toBe(0);

    await serve.start();
    const created = await serve.cli(['standing', 'create', 'worker']);
    expect(created.exitCode, created.stderr).toBe(0);

    const sessions = async () =>
      String(
        (await tmux('list-sessions', '-F', '#{session_name}\t#{@the-loop-owner}')).stdout,
      ).split('\n');
    const clients = String(
      (await tmux('list-clients', '-F', '#{client_control_mode}\t#{session_name}')).stdout,
    ).split('\n');
    // Serve's control client sits in a session of its own, tagged with its owner id.
    const control = clients.filter((line) => line.startsWith('1\t'));
    expect(control).toHaveLength(1);
    const ownName = control[0]?.split('\t')[1] ?? '';
    expect(ownName).not.toBe(controlName);
    expect(await sessions()).toContain(`${ownName}\t${owner}`);
    expect(await sessions()).toContain(`${controlName}\t`);

    expect(await serve.kill('SIGTERM')).toBe(0);
    const left = await sessions();
    expect(left).toContain(`${controlName}\t`);
    expect(left.some((line) => line.startsWith(`${ownName}\t`))).toBe(false);
  }, 60_000);
});
