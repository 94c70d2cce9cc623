import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';
import { createExecaTmuxRunner, type TmuxRunner } from '../../src/tmux/tmux-runner.js';

const EXIT_WAIT_MS = 5_000;

export interface TmuxOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A tmux server of a test's own: a unique `-L` socket and no user config. Tests never touch the
 * user's tmux server; `dispose()` kills this one.
 */
export interface PrivateTmux {
  readonly socket: string;
  readonly runner: TmuxRunner;
  /** Runs tmux directly on this server (to set up situations the driver must cope with). */
  tmux(...args: string[]): Promise<TmuxOutcome>;
  /** Like `tmux`, with stdin, and throws when tmux fails; resolves with its stdout. */
  run(args: readonly string[], input?: string): Promise<string>;
  /** Kills the server, waits until the programs of its live panes have exited, removes the socket. */
  dispose(): Promise<void>;
}

export function createPrivateTmux(): PrivateTmux {
  const socket = `loop-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const base = ['-L', socket, '-f', '/dev/null'];
  const tmux = async (args: readonly string[], input?: string): Promise<TmuxOutcome> => {
    const result = await execa('tmux', [...base, ...args], {
      reject: false,
      timeout: 20_000,
      input: input ?? '',
    });
    return {
      exitCode: result.exitCode ?? -1,
      stdout: String(result.stdout),
      stderr: String(result.stderr),
    };
  };
  return {
    socket,
    runner: createExecaTmuxRunner({ socket, configFile: '/dev/null' }),
    tmux: (...args) => tmux(args),
    async run(args, input) {
      const result = await tmux(args, input);
      if (result.exitCode !== 0) {
        throw new Error(`tmux ${args.join(' ')} failed (${result.exitCode}): ${result.stderr}`);
      }
      return result.stdout;
    },
    async dispose() {
      // Both calls fail when the server is already gone (no sessions left): nothing to wait for.
      const panes = await tmux([
        'list-panes',
        '-a',
        '-F',
        '#{pane_dead} #{pane_pid} #{socket_path}',
      ]);
      await tmux(['kill-server']);
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
    if (
      error instanceof Error &&
      'code' in error &&
      ['ENOENT', 'ESRCH'].includes(String(error.code))
    )
      return false;
    throw error;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}
