/**
 * `npm run test:real [-- --claude VERSION] [--report FILE] [test files…]`: the real-client tier
 * (docs/design.md §11, §23). Runs against one Claude Code version: the one `--claude` names (any
 * published version, e.g. the next release before users meet it), else the newest tested one
 * (src/harness/claude-versions.ts); `.ci/run` runs it once per tested version. Installs that
 * Claude Code into its own cache folder first (the network is still there), then runs vitest on
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
import { CLAUDE_NEWEST_TESTED } from '../../src/harness/claude-versions.js';
import { CLAUDE_VERSION_ENV, ensureClaudeCode } from './claude-code-install.js';
import { UNAVAILABLE_ENV } from './real-tier-availability.js';

const options = realTierArgs(process.argv.slice(2));
const version = options.claude ?? CLAUDE_NEWEST_TESTED;
const report = options.report
  ? path.resolve(options.report)
  : path.join(await mkdtemp(path.join(tmpdir(), 'loop-real-')), 'report.json');
const tierEnv: NodeJS.ProcessEnv = { ...process.env, [CLAUDE_VERSION_ENV]: version };
console.log(`real tier: Claude Code ${version}`);

const works = (command: string, args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;

let unavailable: string | undefined;
if (!works('tmux', ['-V'])) unavailable = 'tmux is not installed';
if (unavailable === undefined) {
  const install = await ensureClaudeCode(tierEnv, version);
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
  ...options.files,
];
const env: NodeJS.ProcessEnv = tierEnv;
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
    `real tier ${version}: ${result.numPassedTests ?? 0} passed, ${failed} failed, ${skipped} skipped`,
  );
} catch (error) {
  console.log(`real tier ${version}: no report at ${report} (${String(error)})`);
  process.exitCode = 1;
}
if (status !== 0) process.exitCode = status;

/** `--claude V`, `--report F` and the test files to run (all of them when none is named). */
function realTierArgs(args: readonly string[]): {
  readonly claude?: string;
  readonly report?: string;
  readonly files: readonly string[];
} {
  let claude: string | undefined;
  let reportFile: string | undefined;
  const files: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--claude' || arg === '--report') {
      const value = args[index + 1];
      if (value === undefined || value.startsWith('--')) {
        console.error(`${arg} needs a value`);
        process.exit(2);
      }
      if (arg === '--claude') claude = value;
      else reportFile = value;
      index += 1;
    } else files.push(arg);
  }
  if (claude !== undefined && !/^\d+\.\d+\.\d+$/.test(claude)) {
    console.error(`--claude takes a version such as ${CLAUDE_NEWEST_TESTED}, not ${claude}`);
    process.exit(2);
  }
  return { ...(claude ? { claude } : {}), ...(reportFile ? { report: reportFile } : {}), files };
}
