import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { execa } from 'execa';
import type { CleanupStack } from './cleanup-stack.js';

export interface BenchTmux {
  /** The `-L` name: give it to `serve` as `tmux.socket`. */
  readonly socket: string;
  run(
    args: readonly string[],
    input?: string,
  ): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

/**
 * A tmux server of the bench's own (`tmux -L <unique> -f /dev/null`), started before `serve` so the
 * user's ~/.tmux.conf never applies (serve itself passes no `-f`). Killed by the cleanup stack,
 * with every session in it.
 */
export async function startPrivateTmux(label: string, cleanup: CleanupStack): Promise<BenchTmux> {
  const socket = `loop-bench-${process.pid}-${randomBytes(3).toString('hex')}-${label}`;
  const base = ['-L', socket, '-f', '/dev/null'];
  const run: BenchTmux['run'] = async (args, input) => {
    const result = await execa('tmux', [...base, ...args], { input: input ?? '', reject: false });
    return {
      exitCode: result.exitCode ?? -1,
      stdout: String(result.stdout),
      stderr: String(result.stderr),
    };
  };
  // A server with no session at all answers a targeted command with "no current target", which
  // serve reads as "tmux did not answer"; one idle session of the bench's keeps it away from that.
  const started = await run(['new-session', '-d', '-s', 'bench-keepalive', 'sleep', '1000000']);
  if (started.exitCode !== 0) {
    throw new Error(`bench: could not start tmux server ${socket}: ${started.stderr.trim()}`);
  }
  const socketPath = (await run(['display-message', '-p', '#{socket_path}'])).stdout.trim();
  cleanup.defer(`kill tmux server ${socket}`, async () => {
    await run(['kill-server']);
    // tmux leaves its socket file behind after kill-server; the bench leaves nothing.
    if (socketPath) await rm(socketPath, { force: true });
  });
  return { socket, run };
}
