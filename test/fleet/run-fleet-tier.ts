/**
 * `npm run test:fleet [-- --report FILE]`: the fleet tier (docs/design.md §21) on vitest.fleet.config.ts,
 * with a real `nats-server`. Where it is missing, every test is reported skipped with the reason,
 * never passed. The JSON report has vitest's shape, so `.ci/run` reads it like the main one.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FLEET_UNAVAILABLE_ENV, fleetTierUnavailable } from './nats-server.js';

const reportArg = process.argv.indexOf('--report');
const report =
  reportArg > 0 && process.argv[reportArg + 1]
    ? path.resolve(process.argv[reportArg + 1] ?? '')
    : path.join(await mkdtemp(path.join(tmpdir(), 'loop-fleet-')), 'report.json');

const env: NodeJS.ProcessEnv = { ...process.env };
const unavailable = fleetTierUnavailable(env);
if (unavailable !== undefined) {
  console.log(`fleet tier skipped: ${unavailable}`);
  env[FLEET_UNAVAILABLE_ENV] = unavailable;
}
const vitest = [
  'run',
  '--config',
  'vitest.fleet.config.ts',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  // `npm run test:fleet -- test/fleet/FILE.test.ts` runs only those files.
  ...process.argv.slice(2).filter((arg, i, all) => arg !== '--report' && all[i - 1] !== '--report'),
];
const child = spawn(path.resolve('node_modules/.bin/vitest'), vitest, { stdio: 'inherit', env });
const status = await new Promise<number>((resolve) =>
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
);

try {
  const result = JSON.parse(readFileSync(report, 'utf8')) as Record<string, number>;
  const skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
  const failed = (result.numFailedTests ?? 0) + (result.numRuntimeErrors ?? 0);
  console.log(
    `fleet tier: ${result.numPassedTests ?? 0} passed, ${failed} failed, ${skipped} skipped`,
  );
} catch (error) {
  console.log(`fleet tier: no report at ${report} (${String(error)})`);
  process.exitCode = 1;
}
if (status !== 0) process.exitCode = status;
