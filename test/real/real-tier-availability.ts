import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { claudeCodeBinary } from './claude-code-install.js';

/** Set by the runner when the tier cannot run; its value is the reason. */
export const UNAVAILABLE_ENV = 'THE_LOOP_REAL_UNAVAILABLE';

/**
 * Why the real-client tier cannot run here, or undefined when it can. Tests skip on a reason, so a
 * machine without the binary or tmux reports them skipped, never passed.
 */
export function realTierUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const told = env[UNAVAILABLE_ENV];
  if (told !== undefined && told !== '') return told;
  if (!existsSync(claudeCodeBinary(env))) {
    return 'Claude Code is not installed in the cache (run `npm run test:real`, which installs it)';
  }
  if (spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status !== 0) return 'tmux is not installed';
  return undefined;
}
