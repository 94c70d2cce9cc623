/**
 * `npm run test:real [-- --report FILE] [FILTER…]`: the real-client tier (DESIGN §11). Installs the
 * pinned Claude Code into the cache first (the network is still there), then runs vitest on
 * vitest.real.config.ts — inside a network namespace with only loopback when it can (root and
 * `unshare -n`), otherwise with Claude Code's own switches only. Where the tier cannot run, every
 * test is reported skipped with the reason, never passed. The JSON report has vitest's shape, so
 * `.ci/run` reads it like the main one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureClaudeCode } from './claude-code-install.js';
import { UNAVAILABLE_ENV } from './real-tier-availability.js';

const reportArg = process.argv.indexOf('--report');
const report =
  reportArg > 0 && process.argv[reportArg + 1]
    ? path.resolve(process.argv[reportArg + 1] ?? '')
    : path.join(await mkdtemp(path.join(tmpdir(), 'loop-real-')), 'report.json');

const works = (command: string, args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;

let unavailable: string | undefined;
if (!works('tmux', ['-V'])) unavailable = 'tmux is not installed';
if (unavailable === undefined) {
  const install = await ensureClaudeCode();
  if (!install.ok) unavailable = install.reason;
  else if (install.installed)
    console.log(
      `real tier: installed Claude Code into ${path.dirname(path.dirname(path.dirname(install.binary)))}`,
    );
}

const vitest = [
  path.resolve('node_modules/.bin/vitest'),
  'run',
  '--config',
  'vitest.real.config.ts',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  // `npm run test:real -- mcp-claude` runs only the files that match, as vitest's own filter.
  ...process.argv
    .slice(2)
    .filter((arg, index, all) => arg !== '--report' && all[index - 1] !== '--report'),
];
const env: NodeJS.ProcessEnv = { ...process.env };
let argv: string[];
if (unavailable !== undefined) {
  console.log(`real tier skipped: ${unavailable}`);
  env[UNAVAILABLE_ENV] = unavailable;
  argv = vitest;
} else if (process.getuid?.() === 0 && works('unshare', ['-n', 'true'])) {
  console.log('real tier: in a network namespace with only loopback (unshare -n)');
  argv = ['unshare', '-n', '--', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...vitest];
} else {
  const why = process.getuid?.() === 0 ? '`unshare -n` failed' : 'not root';
  console.log(`real tier: no network namespace (${why}); running with the env switches only`);
  argv = vitest;
}

const child = spawn(argv[0] ?? 'false', argv.slice(1), { stdio: 'inherit', env });
const status = await new Promise<number>((resolve) =>
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
);

try {
  const result = JSON.parse(readFileSync(report, 'utf8')) as Record<string, number>;
  const skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
  const failed = (result.numFailedTests ?? 0) + (result.numRuntimeErrors ?? 0);
  console.log(
    `real tier: ${result.numPassedTests ?? 0} passed, ${failed} failed, ${skipped} skipped`,
  );
} catch (error) {
  console.log(`real tier: no report at ${report} (${String(error)})`);
  process.exitCode = 1;
}
if (status !== 0) process.exitCode = status;
