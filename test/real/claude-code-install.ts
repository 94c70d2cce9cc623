import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The one Claude Code version the real-client tier runs (DESIGN §11). Change it here only. */
export const CLAUDE_CODE_VERSION = '2.1.197';
export const CLAUDE_CODE_PACKAGE = '@anthropic-ai/claude-code';

/** The cache folder the tier installs into: outside the clone, reused across runs. */
export function claudeCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ''
      ? env.XDG_CACHE_HOME
      : path.join(homedir(), '.cache');
  return path.join(cache, 'the-loop-test', `claude-code-${CLAUDE_CODE_VERSION}`);
}

/** The installed native binary (the postinstall script copies it over `bin/claude.exe`). */
export function claudeCodeBinary(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(claudeCodeCacheDir(env), 'node_modules', '.bin', 'claude');
}

export function isClaudeCodeInstalled(env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(claudeCodeBinary(env));
}
