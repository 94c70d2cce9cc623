import { chown, lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { binPath, createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

/** Leaves a socket file nobody listens on at `socketPath`: its server is killed, not closed. */
async function leaveStaleSocket(socketPath: string): Promise<void> {
  const script = `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.stdout.write('up'))`;
  const child = execa(process.execPath, ['-e', script], { reject: false });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await eventually(() => output === 'up', { what: 'the throwaway socket server' });
  child.kill('SIGKILL');
  await child;
}

// Only root can make a file that belongs to another user, so elsewhere this test is skipped.
const isRoot = process.getuid?.() === 0;
if (!isRoot) {
  process.stdout.write("foreign-socket test skipped: chown to another user's uid needs root\n");
}

describe("another user's stale control socket in the state root", () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it.skipIf(!isRoot)(
    'is never removed: serve refuses to start, naming the path',
    async () => {
      fixture = await createServeFixture();
      const serve = fixture;
      await mkdir(serve.stateRoot, { recursive: true, mode: 0o700 });
      const socketPath = path.join(serve.stateRoot, 'control.sock');
      await leaveStaleSocket(socketPath);
      // nobody:nogroup — any uid but ours.
      await chown(socketPath, 65534, 65534);

      const result = await execa(
        process.execPath,
        [binPath, 'serve', '--config', serve.configPath],
        {
          reject: false,
          timeout: 20_000,
          env: { SLACK_BOT_TOKEN: '', SLACK_APP_TOKEN: '', GITHUB_TOKEN: '' },
        },
      );
      expect(result.timedOut, 'serve started on the foreign socket path').toBe(false);
      expect(result.exitCode).not.toBe(0);
      expect(String(result.stderr)).toContain(socketPath);
      const stats = await lstat(socketPath);
      expect(stats.isSocket()).toBe(true);
      expect(stats.uid).toBe(65534);
    },
    40_000,
  );
});
