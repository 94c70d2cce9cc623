import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { CleanupStack } from './cleanup-stack.js';
import {
  awaitPrompt,
  fakeAgentPath,
  latencyMs,
  promptReader,
  waitForAgentsReady,
} from './fake-agent-harness.js';
import { startPrivateTmux, type BenchTmux } from './private-tmux.js';

export interface FloorResult {
  /** Milliseconds from spawning tmux to the agent recording the line, one per delivery. */
  readonly samples: number[];
  /** One spawned tmux process that does nothing (`display-message -p`), ms: the unit cost. */
  readonly tmuxCallSamples: number[];
}

/**
 * A fake agent in a session of the bench's own (`name`, not serve's) on `tmux`, and one raw
 * delivery into it: load-buffer, paste-buffer and send-keys Enter in a single tmux process, timed
 * until the agent records the prompt. Nothing the-loop does can be cheaper than one spawned tmux
 * process, so every other figure is also given as a multiple of this one.
 */
export async function startRawTarget(
  tmux: BenchTmux,
  name: string,
  cleanup: CleanupStack,
): Promise<{ deliver(text: string): Promise<number> }> {
  const home = await mkdtemp(path.join(tmpdir(), `loop-bench-${name}-`));
  cleanup.defer(`remove ${home}`, () => rm(home, { recursive: true, force: true }));
  const spawned = await tmux.run([
    'new-session',
    '-d',
    '-s',
    name,
    'env',
    `FAKE_AGENT_HOME=${home}`,
    process.execPath,
    fakeAgentPath,
  ]);
  if (spawned.exitCode !== 0) throw new Error(`bench: ${name} session: ${spawned.stderr.trim()}`);
  await waitForAgentsReady(home, 1, 15_000);
  const prompts = promptReader(home);
  return {
    async deliver(text) {
      const index = prompts.all.length;
      const sentAt = process.hrtime.bigint();
      await execa(
        'tmux',
        ['-L', tmux.socket, 'load-buffer', '-b', name, '-', ';']
          .concat(['paste-buffer', '-p', '-d', '-r', '-b', name, '-t', `=${name}:`, ';'])
          .concat(['send-keys', '-t', `=${name}:`, 'Enter']),
        { input: text },
      );
      const record = await awaitPrompt(prompts, index, text, name);
      return latencyMs(sentAt, record);
    },
  };
}

/** The floor scenario: raw deliveries (startRawTarget), and the cost of one bare tmux call. */
export async function measureFloor(options: {
  readonly iterations: number;
  readonly warmup: number;
  readonly cleanup: CleanupStack;
}): Promise<FloorResult> {
  const tmux = await startPrivateTmux('floor', options.cleanup);
  const raw = await startRawTarget(tmux, 'floor', options.cleanup);
  const samples: number[] = [];
  for (let index = 0; index < options.warmup + options.iterations; index += 1) {
    const ms = await raw.deliver(`floor ${index}`);
    if (index >= options.warmup) samples.push(ms);
  }
  const tmuxCallSamples: number[] = [];
  for (let index = 0; index < options.iterations; index += 1) {
    const begun = performance.now();
    await execa('tmux', ['-L', tmux.socket, 'display-message', '-p', '-t', '=floor:', 'x']);
    tmuxCallSamples.push(performance.now() - begun);
  }
  return { samples, tmuxCallSamples };
}
