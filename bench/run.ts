/**
 * `npm run bench` (docs/design.md §10): the hot path, event → pane, measured in one run on private tmux
 * servers against the fake agent, which records each prompt it receives with a timestamp. Five
 * scenarios, one file each: floor, deliver, burst, webhook, scale; deliver and webhook also run a
 * variant that shows what one step costs. Progress goes to stderr; stdout gets a table and then
 * ONE JSON line with every figure and each target's verdict. Targets are ratios to the floor where
 * they can be, because shared machines are noisy.
 *
 * Env: BENCH_QUICK=1 (smoke-test sizes), BENCH_SKIP_BUILD=1 (use dist/ as it is), BENCH_ONLY=soak
 * (the half-hour soak, run only when named; BENCH_SOAK_MINUTES shortens it),
 * BENCH_ONLY=hooks,floor (only these scenarios; the others' figures are null, their targets left out),
 * BENCH_ITERATIONS, BENCH_BURST_RATE (msgs/s, 0 = all at once), BENCH_SERVE_NODE_ARGS (profiling:
 * serve then runs as `node <args> bin/the-loop`, without the V8 flags of bin/the-loop's shebang).
 * Exit 0 when every scenario ran (targets may still be missed: see the JSON), 1 when one failed.
 */
import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { benchOptions } from './bench-options.js';
import { measureBoltFloor } from './bolt-floor.js';
import { measureBurst } from './burst.js';
import { createCleanupStack, type CleanupStack } from './cleanup-stack.js';
import { measureDeliver } from './deliver.js';
import { measureFleet } from './fleet.js';
import { measureFloor } from './floor.js';
import { measureHooks } from './hooks.js';
import { measureRealAgent } from './real-agent.js';
import { existsSync } from 'node:fs';
import { claudeCodeBinary } from '../test/real/claude-code-install.js';
import { repoPath } from './repo-path.js';
import { measureScale } from './scale.js';
import { measureSoak } from './soak.js';
import { formatReport, judgeTargets, summarize, targetSpecs } from './summarize.js';
import { measureWebhook } from './webhook.js';

const options = benchOptions(process.env);
const active = new Set<CleanupStack>();
const errors: Record<string, string> = {};
const began = performance.now();

// An interrupted bench still leaves no tmux server, serve process or temporary folder behind.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}, cleaning up\n`);
    void Promise.all([...active].map((stack) => stack.run())).finally(() => process.exit(code));
  });
}

async function scenario<T>(
  name: string,
  body: (cleanup: CleanupStack) => Promise<T>,
): Promise<T | undefined> {
  if (options.only && name !== 'build' && !options.only.has(name)) return undefined;
  const cleanup = createCleanupStack();
  active.add(cleanup);
  const started = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    return await body(cleanup);
  } catch (error) {
    errors[name] = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${name} failed: ${errors[name]}\n`);
    return undefined;
  } finally {
    for (const failure of await cleanup.run()) {
      process.stderr.write(`bench: cleanup after ${name}: ${failure}\n`);
    }
    active.delete(cleanup);
    process.stderr.write(
      `bench: ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}

async function build(): Promise<void> {
  // serve runs from dist/: measure the code as it is now, not the last build.
  const tsc = repoPath('node_modules', 'typescript', 'bin', 'tsc');
  const result = await execa(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: repoPath(),
    reject: false,
    all: true,
  });
  if (result.exitCode !== 0) {
    throw new Error(`tsc -p tsconfig.build.json failed:\n${String(result.all).slice(0, 4_000)}`);
  }
}

async function defaultSubmitDelayMs(): Promise<number> {
  const schema = JSON.parse(await readFile(repoPath('schemas', 'config.schema.json'), 'utf8')) as {
    properties: { delivery: { properties: { submitDelayMs: { default: number } } } };
  };
  return schema.properties.delivery.properties.submitDelayMs.default;
}

if (options.build) await scenario('build', build);
const ready = !errors['build'];
const floor = await scenario('floor', (cleanup) =>
  measureFloor({ iterations: options.iterations, warmup: options.warmup, cleanup }),
);
const deliverOptions = { iterations: options.iterations, warmup: options.warmup };
const deliver = ready
  ? await scenario('deliver', (cleanup) =>
      measureDeliver({ label: 'deliver', ...deliverOptions, cleanup }),
    )
  : undefined;
const deliverNoSettle = ready
  ? await scenario('deliver-nosettle', (cleanup) =>
      measureDeliver({ label: 'nosettle', ...deliverOptions, submitDelayMs: 0, cleanup }),
    )
  : undefined;
const burst = ready
  ? await scenario('burst', async (cleanup) => {
      const measured = await measureBurst({
        sessions: options.burstSessions,
        messages: options.burstMessages,
        rounds: options.burstRounds,
        ratePerSecond: options.burstRate,
        cleanup,
      });
      // Its floor in the same run: a bare Bolt app sent the same rounds (bolt-floor.ts).
      const bolt = await measureBoltFloor({
        messages: options.burstMessages,
        rounds: options.burstRounds,
        cleanup,
      });
      return { ...measured, boltRoundAckP99s: bolt.roundAckP99s };
    })
  : undefined;
const webhook = ready
  ? await scenario('webhook', (cleanup) =>
      measureWebhook({
        deliveries: options.webhookDeliveries,
        author: 'octocat',
        concurrency: options.webhookConcurrency,
        cleanup,
      }),
    )
  : undefined;
// The same path stopped before the scope decision, to show what deciding costs.
const webhookUnauthorized = ready
  ? await scenario('webhook-unauthorized', (cleanup) =>
      measureWebhook({
        deliveries: options.webhookDeliveries,
        author: 'stranger',
        concurrency: options.webhookConcurrency,
        cleanup,
      }),
    )
  : undefined;
const scale = ready
  ? await scenario('scale', (cleanup) =>
      measureScale({
        sessions: options.scaleSessions,
        bindings: options.scaleBindings,
        listIterations: options.listIterations,
        cleanup,
      }),
    )
  : undefined;
const hooks = ready
  ? await scenario('hooks', (cleanup) =>
      measureHooks({ iterations: options.iterations, warmup: options.warmup, cleanup }),
    )
  : undefined;
// The real Claude Code runs where the real tier installed it; elsewhere the row is left out,
// unless BENCH_ONLY names it (then its absence is a failure that says why).
const realWanted = options.only?.has('real') ?? existsSync(claudeCodeBinary());
if (!realWanted)
  process.stderr.write('bench: real skipped: Claude Code is not installed (npm run test:real)\n');
const realAgent =
  ready && realWanted
    ? await scenario('real', (cleanup) =>
        measureRealAgent({
          iterations: Math.min(options.iterations, 20),
          warmup: Math.min(options.warmup, 2),
          cleanup,
        }),
      )
    : undefined;
// Three serves on a real nats-server; where it is missing, the rows say skipped and why.
const fleet = ready
  ? await scenario('fleet', (cleanup) =>
      measureFleet({
        hops: options.fleetHops,
        messages: options.fleetMessages,
        sessions: options.fleetSessions,
        cleanup,
      }),
    )
  : undefined;
if (fleet?.skipped) process.stderr.write(`bench: fleet skipped: ${fleet.skipped}\n`);
// Half an hour long, so it runs only when asked for: BENCH_ONLY=soak (docs/design.md §18 Growth).
const soak =
  ready && options.only?.has('soak') === true
    ? await scenario('soak', (cleanup) =>
        measureSoak({
          minutes: options.soakMinutes,
          sessions: options.soakSessions,
          ratePerSecond: options.soakRate,
          cleanup,
        }),
      )
    : undefined;

const figures = summarize({
  quick: options.quick,
  submitDelayMs: await defaultSubmitDelayMs(),
  ...(floor ? { floor } : {}),
  ...(deliver ? { deliver } : {}),
  ...(deliverNoSettle ? { deliverNoSettle } : {}),
  ...(burst ? { burst } : {}),
  ...(webhook ? { webhook } : {}),
  ...(webhookUnauthorized ? { webhookUnauthorized } : {}),
  ...(scale ? { scale } : {}),
  ...(hooks ? { hooks } : {}),
  ...(realAgent ? { realAgent } : {}),
  ...(fleet && !fleet.skipped ? { fleet } : {}),
  durationS: (performance.now() - began) / 1000,
});
// With BENCH_ONLY, a target of a scenario that did not run is left out rather than missed.
const listed = options.only
  ? targetSpecs.filter(
      (spec) => figures[spec.figure] !== null || (fleet?.skipped && spec.name.startsWith('fleet_')),
    )
  : targetSpecs.filter((spec) => realWanted || !spec.figure.startsWith('real_'));
// A fleet without nats-server is not judged: its rows say skipped and why.
const skipped: Record<string, string> = fleet?.skipped
  ? Object.fromEntries(
      listed
        .filter((spec) => spec.name.startsWith('fleet_'))
        .map((spec) => [spec.name, fleet.skipped ?? '']),
    )
  : {};
const specs = listed.filter((spec) => skipped[spec.name] === undefined);
const targets = judgeTargets(figures, specs);
process.stdout.write(`${formatReport(figures, targets, listed, skipped)}\n`);
if (soak) process.stdout.write(`${soak.report}\n`);
const failed = Object.keys(errors).length > 0;
process.stdout.write(
  `${JSON.stringify({
    bench: 'the-loop',
    ...figures,
    targets,
    ...(Object.keys(skipped).length > 0 ? { skipped } : {}),
    ...(soak ? { soak: { ...soak, report: undefined } } : {}),
    ...(failed ? { errors } : {}),
  })}\n`,
);
process.exitCode = failed ? 1 : 0;
