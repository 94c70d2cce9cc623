import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';

export interface PrivateTmux {
  readonly socket: string;
  /** Runs one tmux client command against this server and returns its stdout. */
  run(args: readonly string[], input?: string): Promise<string>;
  /** Kills the server and waits until the programs of its live panes have exited. */
  kill(): Promise<void>;
}

const EXIT_WAIT_MS = 5_000;

/** A tmux server of the test's own (`-L loop-test-…`), so tests never touch the user's server. */
export function createPrivateTmux(): PrivateTmux {
  const socket = `loop-test-${randomUUID().slice(0, 12)}`;
  const base = ['-L', socket, '-f', '/dev/null'];
  return {
    socket,
    async run(args, input) {
      const result = await execa('tmux', [...base, ...args], {
        timeout: 20_000,
        ...(input === undefined ? {} : { input }),
      });
      return result.stdout;
    },
    async kill() {
      // Both calls fail when the server is already gone (no sessions left): nothing to wait for.
      const panes = await execa(
        'tmux',
        [...base, 'list-panes', '-a', '-F', '#{pane_dead} #{pane_pid} #{socket_path}'],
        { reject: false },
      );
      await execa('tmux', [...base, 'kill-server'], { reject: false });
      const rows = panes.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split(' '));
      await waitUntilGone(rows.filter(([dead]) => dead === '0').map(([, pid]) => Number(pid)));
      // tmux leaves its socket file behind; one per test would pile up in /tmp.
      const socketPath = rows[0]?.[2];
      if (socketPath !== undefined) await rm(socketPath, { force: true });
    },
  };
}

/**
 * Pane programs get SIGHUP from kill-server and may still write their last records; a test that
 * removes their folder before they are gone races them. They are not our children, so poll.
 */
async function waitUntilGone(pids: readonly number[]): Promise<void> {
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) throw new Error(`pane processes ${pids.join(', ')} did not exit`);
    await delay(10);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ESRCH') return false;
    throw error;
  }
  // Orphaned by the dead server, an exited pane program waits as a zombie until init reaps it,
  // which can take seconds; a zombie holds no files, so it counts as gone.
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    // No /proc (not Linux), or the process was reaped just now: kill(0) already answered.
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false;
    throw error;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}
