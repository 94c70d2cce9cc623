import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CleanupStack } from './cleanup-stack.js';
import { createSessions } from './create-sessions.js';
import {
  awaitPrompt,
  fakeAgentHarness,
  latencyMs,
  promptReader,
  waitForAgentsReady,
} from './fake-agent-harness.js';
import { startRawTarget } from './floor.js';
import { startPrivateTmux } from './private-tmux.js';
import { startServe } from './start-serve.js';

export interface DeliverResult {
  /** `say` request sent → prompt recorded by the agent, ms. */
  readonly samples: number[];
  /** `say` request sent → its answer (serve answers once Enter is sent), ms. */
  readonly apiSamples: number[];
  /**
   * Raw deliveries (the floor, floor.ts) into a second fake agent on a tmux server of its own,
   * one before each `say`: the deliver ratios are judged on these, taken in the same seconds as
   * the samples they divide.
   */
  readonly floorSamples: number[];
  readonly startupMs: number;
}

/**
 * Control-plane `say` → agent, through a real `serve` and its control socket, into a `command`
 * harness running the fake agent (so no confirmation wait). `submitDelayMs` undefined keeps the
 * configured default, which is what the target is judged on; 0 shows what the settle costs.
 * Each `say` follows a raw delivery into a second fake agent on its own tmux server: the ratio
 * of two p50s of a few milliseconds, taken a minute apart on a shared machine, moved by ±25 %
 * with the machine; taken in turns, both see the same moments.
 */
export async function measureDeliver(options: {
  readonly label: string;
  readonly iterations: number;
  readonly warmup: number;
  readonly cleanup: CleanupStack;
  readonly submitDelayMs?: number;
}): Promise<DeliverResult> {
  const tmux = await startPrivateTmux(options.label, options.cleanup);
  const serve = await startServe({
    label: options.label,
    cleanup: options.cleanup,
    tmuxSocket: tmux.socket,
    config: (dir) => ({
      harnesses: { fake: fakeAgentHarness(path.join(dir, 'agent')) },
      defaults: { harness: 'fake', cwd: '.' },
      standing: { autoStart: false, allowedRoots: ['.'], sessions: [] },
      ...(options.submitDelayMs === undefined
        ? {}
        : { delivery: { submitDelayMs: options.submitDelayMs } }),
      slack: { enabled: false },
    }),
  });
  const home = path.join(serve.dir, 'agent');
  await mkdir(home, { recursive: true });
  await createSessions(serve.api, ['target'], { harness: 'fake', start: true }, 1);
  await waitForAgentsReady(home, 1, 15_000);

  // On a tmux server of its own, as in the floor scenario: serve's server, with its control
  // client attached, would slow the floor along with serve.
  const floorTmux = await startPrivateTmux(`${options.label}-floor`, options.cleanup);
  const raw = await startRawTarget(floorTmux, 'floor', options.cleanup);

  const prompts = promptReader(home);
  const samples: number[] = [];
  const apiSamples: number[] = [];
  const floorSamples: number[] = [];
  for (let index = 0; index < options.warmup + options.iterations; index += 1) {
    // Two back to back, the second kept: as in the floor scenario, a delivery into an agent (and
    // from a bench) that has just been busy, rather than one that sat idle through the last say.
    await raw.deliver(`floor ${index} warm-up`);
    const floorMs = await raw.deliver(`floor ${index}`);
    const text = `deliver ${index}`;
    const sentAt = process.hrtime.bigint();
    const said = await serve.api.request('POST', '/api/v1/standing-sessions/target/say', { text });
    const answeredMs = Number(process.hrtime.bigint() - sentAt) / 1e6;
    if (said.status !== 200) {
      throw new Error(`bench: say answered ${said.status}: ${JSON.stringify(said.body)}`);
    }
    const record = await awaitPrompt(prompts, index, text, 'deliver');
    if (index >= options.warmup) {
      samples.push(latencyMs(sentAt, record));
      apiSamples.push(answeredMs);
      floorSamples.push(floorMs);
    }
  }
  return { samples, apiSamples, floorSamples, startupMs: serve.startupMs };
}
