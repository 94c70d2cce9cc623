import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Children not yet reaped, so an afterAll can kill what a failed test left running. */
export const liveChildren = new Set<ChildProcess>();

export interface KilledRun {
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/**
 * Runs a TypeScript script (through tsx) that reports on stdout, one line per acknowledged step,
 * and SIGKILLs it `delayMs` after `armed()` first holds — a crash at a random point after real
 * work. A script that never gets there is killed after ten seconds; the missing lines then fail
 * the caller's checks.
 */
export function runUntilKilled(options: {
  readonly script: string;
  readonly args: readonly string[];
  readonly delayMs: number;
  readonly onLine: (line: string) => void;
  readonly armed: () => boolean;
}): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', options.script, ...options.args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    liveChildren.add(child);
    const deadline = setTimeout(() => child.kill('SIGKILL'), 10_000);
    let partial = '';
    let stderr = '';
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.onLine(line);
      if (options.armed()) killTimer ??= setTimeout(() => child.kill('SIGKILL'), options.delayMs);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(killTimer);
      clearTimeout(deadline);
      liveChildren.delete(child);
      resolve({ signal, stderr });
    });
  });
}
