import { execFile } from 'node:child_process';
import type { TmuxVersionFacts } from './check-tmux-version.js';

/** `tmux -V` with the caller's PATH. Asks no server anything, so it touches no session. */
export function probeTmuxVersion(env: NodeJS.ProcessEnv): Promise<TmuxVersionFacts> {
  return new Promise((resolve) => {
    execFile('tmux', ['-V'], { env, timeout: 5_000 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ output: stdout });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      resolve({
        error: code === 'ENOENT' ? 'tmux is not on PATH' : stderr.trim() || error.message,
      });
    });
  });
}
