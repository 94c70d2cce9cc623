import { randomBytes } from 'node:crypto';
import { execa } from 'execa';
import { createExecaTmuxRunner, type TmuxRunner } from '../../src/tmux/tmux-runner.js';

/**
 * A tmux server of a test's own: a unique `-L` socket and no user config. Tests never touch the
 * user's tmux server; `dispose()` kills this one.
 */
export interface PrivateTmux {
  readonly socket: string;
  readonly runner: TmuxRunner;
  /** Runs tmux directly on this server (to set up situations the driver must cope with). */
  tmux(...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  dispose(): Promise<void>;
}

export function createPrivateTmux(): PrivateTmux {
  const socket = `loop-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const base = ['-L', socket, '-f', '/dev/null'];
  return {
    socket,
    runner: createExecaTmuxRunner({ socket, configFile: '/dev/null' }),
    async tmux(...args) {
      const result = await execa('tmux', [...base, ...args], { reject: false });
      return {
        exitCode: result.exitCode ?? -1,
        stdout: String(result.stdout),
        stderr: String(result.stderr),
      };
    },
    async dispose() {
      await execa('tmux', [...base, 'kill-server'], { reject: false });
    },
  };
}
