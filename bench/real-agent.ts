import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { standingTarget } from '../src/refs.js';
import { readClaudeScreen } from '../src/harness/claude-screen.js';
import { startFakeAnthropic } from '../test/fakes/fake-anthropic/start-fake-anthropic.js';
import { claudeCodeBinary } from '../test/real/claude-code-install.js';
import { claudeEnv, seedClaudeHome } from '../test/real/scratch-home.js';
import { userTexts } from '../test/real/start-real-claude.js';
import type { CleanupStack } from './cleanup-stack.js';
import { createSessions } from './create-sessions.js';
import { startPrivateTmux, type BenchTmux } from './private-tmux.js';
import { startServe } from './start-serve.js';
import { waitUntil } from './wait-until.js';

export interface RealAgentResult {
  /** API `say` sent → the prompt's request at the fake Messages API, ms. */
  readonly saySamples: number[];
  /** Raw tmux into the same Claude Code (paste, Enter once the box shows it) → the request, ms. */
  readonly rawSamples: number[];
  /** Of the raw way: paste sent → the box showing it, the settle Claude Code needs before Enter. */
  readonly settleSamples: number[];
}

/**
 * The real-agent row (docs/design.md §10): the real Claude Code (the real tier's pinned, cached build) in a
 * standing session under a real `serve`, answering from the fake Messages API. `say` is timed
 * against raw tmux into the same pane, interleaved, each until the model's request carries the
 * prompt; the raw way presses Enter as soon as the box shows the paste, so the settle it includes
 * is the one Claude Code needs, measured here, not guessed. Where Claude Code is not installed
 * (`npm run test:real` installs it) the scenario fails and says so.
 */
export async function measureRealAgent(options: {
  readonly iterations: number;
  readonly warmup: number;
  readonly cleanup: CleanupStack;
}): Promise<RealAgentResult> {
  const binary = claudeCodeBinary();
  if (!existsSync(binary)) {
    throw new Error(`Claude Code is not installed at ${binary}; \`npm run test:real\` installs it`);
  }
  const fake = await startFakeAnthropic();
  options.cleanup.defer('close the fake Messages API', () => fake.close());
  const tmux = await startPrivateTmux('real', options.cleanup);
  let home = '';
  const serve = await startServe({
    label: 'real',
    cleanup: options.cleanup,
    tmuxSocket: tmux.socket,
    config: (dir) => {
      home = path.join(dir, 'claude-home');
      const env = claudeEnv({ home, baseUrl: fake.url });
      return {
        harnesses: {
          claude: {
            kind: 'claude',
            command: 'env',
            args: [...Object.entries(env).map(([name, value]) => `${name}=${value}`), binary],
          },
        },
        defaults: { harness: 'claude', cwd: 'work' },
        standing: { autoStart: false, allowedRoots: ['work'], sessions: [] },
        slack: { enabled: false },
      };
    },
    prepare: async (stateRoot) => {
      const work = path.join(path.dirname(stateRoot), 'work');
      await mkdir(work, { recursive: true });
      await seedClaudeHome({ home, trusted: [work] });
    },
  });
  const target = standingTarget('real');
  const turnsEnded = async (): Promise<number> => {
    const text = await readFile(path.join(serve.stateRoot, 'events.jsonl'), 'utf8');
    return text
      .split('\n')
      .filter((line) => line.includes('"agent.state"') && line.includes('"from":"busy"'))
      .filter((line) => line.includes('"to":"idle"')).length;
  };
  const request = (marker: string) =>
    fake.waitForRequest((r) => r.kind === 'turn' && userTexts(r).some((t) => t.includes(marker)), {
      timeoutMs: 30_000,
      what: `the request carrying ${marker}`,
    });
  await createSessions(serve.api, ['real'], { harness: 'claude', start: true }, 1);
  await request('You are the standing session `real`');
  await waitUntil(async () => (await turnsEnded()) >= 1, {
    what: 'the boot turn to end',
    timeoutMs: 30_000,
  });

  const saySamples: number[] = [];
  const rawSamples: number[] = [];
  const settleSamples: number[] = [];
  for (let index = 0; index < options.warmup + options.iterations; index += 1) {
    const timed = index >= options.warmup;
    for (const way of ['say', 'raw'] as const) {
      const marker = `bench ${way} ${index}`;
      const ended = await turnsEnded();
      const sentAt = Date.now();
      if (way === 'say') {
        const said = await serve.api.request('POST', '/api/v1/standing-sessions/real/say', {
          text: marker,
        });
        if (said.status !== 200) {
          throw new Error(`bench: say answered ${said.status}: ${JSON.stringify(said.body)}`);
        }
      } else {
        const settle = await rawDelivery(tmux, target, marker);
        if (timed) settleSamples.push(settle);
      }
      const arrived = await request(marker);
      if (timed) (way === 'say' ? saySamples : rawSamples).push(arrived.at - sentAt);
      // The next message goes to an idle agent, as a person's next message usually does.
      await waitUntil(async () => (await turnsEnded()) > ended, {
        what: `the turn of ${marker} to end`,
        timeoutMs: 30_000,
      });
    }
  }
  return { saySamples, rawSamples, settleSamples };
}

/** load-buffer + paste-buffer -p -d, then Enter once the box shows the paste; the settle, ms. */
async function rawDelivery(tmux: BenchTmux, target: string, text: string): Promise<number> {
  const pane = `=${target}:`;
  const started = Date.now();
  await tmux.run(['load-buffer', '-b', 'bench-raw', '-'], text);
  await tmux.run(['paste-buffer', '-p', '-d', '-b', 'bench-raw', '-t', pane]);
  await waitUntil(
    async () => {
      const shown = await tmux.run(['capture-pane', '-p', '-t', pane]);
      return readClaudeScreen(shown.stdout).box === text;
    },
    { what: 'the raw paste to show in the box', timeoutMs: 10_000, intervalMs: 5 },
  );
  const settle = Date.now() - started;
  await tmux.run(['send-keys', '-t', pane, 'Enter']);
  return settle;
}
