/**
 * `npm run bench`: the hot path, event → pane, measured on a private tmux server against the fake
 * agent, which records each prompt it receives. Every figure is also given as a ratio to the floor
 * measured in the same run, because absolute times on shared machines are not stable.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';
import { createConfirmationTracker } from '../src/delivery/confirmation-tracker.js';
import { createDeliveryCore } from '../src/delivery/create-delivery-core.js';
import { createReadinessTracker } from '../src/delivery/readiness-tracker.js';
import { silentLogger } from '../src/log/create-logger.js';
import { createTmuxDriver } from '../src/tmux/create-tmux-driver.js';
import { createExecaTmuxRunner } from '../src/tmux/tmux-runner.js';
import { percentile } from './percentile.js';

const iterations = Number(process.env['BENCH_ITERATIONS'] ?? 40);
const owner = 'bench-owner';
const agentPath = path.resolve('test/fakes/fake-agent.mjs');

async function main(): Promise<void> {
  const socket = `loop-bench-${randomBytes(4).toString('hex')}`;
  const runner = createExecaTmuxRunner({ socket, configFile: '/dev/null' });
  const driver = createTmuxDriver({ runner, logger: silentLogger() });
  try {
    const floorAgent = await startAgent(driver, 'floor');
    const floor: number[] = [];
    for (let index = 0; index < iterations; index += 1) {
      const line = `floor ${index}`;
      const started = performance.now();
      await execa(
        'tmux',
        [
          '-L',
          socket,
          'load-buffer',
          '-b',
          'bench',
          '-',
          ';',
          'paste-buffer',
          '-p',
          '-d',
          '-r',
          '-b',
          'bench',
          '-t',
          '=floor:',
          ';',
          'send-keys',
          '-t',
          '=floor:',
          'Enter',
        ],
        { input: line },
      );
      await floorAgent.waitFor(index + 1);
      floor.push(performance.now() - started);
    }

    const coreAgent = await startAgent(driver, 'core');
    const core = createDeliveryCore({
      driver,
      resolve: async (ref) => ({ ref, tmuxName: 'core', owner, agent: false, confirms: false }),
      readiness: createReadinessTracker(),
      confirmations: createConfirmationTracker(),
      events: { record: () => undefined },
      logger: silentLogger(),
      timing: { readyTimeoutMs: 10_000, submitDelayMs: 30, confirmTimeoutMs: 5_000 },
    });
    const deliver: number[] = [];
    for (let index = 0; index < iterations; index += 1) {
      const started = performance.now();
      await core.deliver({
        ref: 'standing:core',
        text: `core ${index}`,
        origin: { surface: 'cli', actor: 'bench' },
      });
      await coreAgent.waitFor(index + 1);
      deliver.push(performance.now() - started);
    }

    const floorP50 = percentile(floor, 50);
    const figures = {
      iterations,
      floor_p50_ms: round(floorP50),
      floor_p99_ms: round(percentile(floor, 99)),
      deliver_p50_ms: round(percentile(deliver, 50)),
      deliver_p99_ms: round(percentile(deliver, 99)),
      deliver_p50_ratio: round(percentile(deliver, 50) / floorP50),
      deliver_p99_ratio: round(percentile(deliver, 99) / floorP50),
    };
    printTable(figures);
    process.stdout.write(`${JSON.stringify({ bench: 'the-loop', ...figures })}\n`);
  } finally {
    await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
  }
}

async function startAgent(driver: ReturnType<typeof createTmuxDriver>, name: string) {
  const home = await mkdtemp(path.join(tmpdir(), 'loop-bench-'));
  const promptsFile = path.join(home, 'prompts.jsonl');
  const readyFile = path.join(home, 'ready');
  const settings = JSON.stringify({
    hooks: {
      SessionStart: [
        { matcher: '', hooks: [{ type: 'command', command: `touch '${readyFile}'` }] },
      ],
    },
  });
  await driver.spawn({
    name,
    cwd: home,
    argv: [process.execPath, agentPath, '--settings', settings],
    env: { FAKE_AGENT_HOME: home },
    owner,
  });
  await until(async () =>
    stat(readyFile).then(
      () => true,
      () => false,
    ),
  );
  return {
    /** Waits until the agent has recorded `count` prompts; polls the file size tightly. */
    async waitFor(count: number): Promise<void> {
      await until(async () => {
        const text = await readFile(promptsFile, 'utf8').catch(() => '');
        return text.split('\n').filter((line) => line !== '').length >= count;
      }, 1);
    },
  };
}

async function until(
  check: () => Promise<boolean>,
  intervalMs = 10,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline)
      throw new Error('bench: timed out waiting for the fake agent');
    await delay(intervalMs);
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function printTable(figures: Record<string, number>): void {
  const width = Math.max(...Object.keys(figures).map((key) => key.length));
  for (const [key, value] of Object.entries(figures)) {
    process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
  }
}

await main();
