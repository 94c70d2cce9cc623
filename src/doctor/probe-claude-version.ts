import { execFile } from 'node:child_process';
import type { ClaudeVersionFacts } from './check-claude-version.js';

/** `<claude> --version`, with the auto-updater and other traffic off. Starts no session. */
export function probeClaudeVersion(
  harness: string,
  binary: string,
  env: NodeJS.ProcessEnv,
): Promise<ClaudeVersionFacts> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['--version'],
      {
        env: { ...env, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
        timeout: 15_000,
      },
      (error, stdout, stderr) => {
        if (error === null) resolve({ harness, output: stdout });
        else resolve({ harness, error: stderr.trim() || error.message });
      },
    );
  });
}
