import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { claudeSettings, shellQuote } from '../src/harness/claude-settings.js';
import type { CleanupStack } from './cleanup-stack.js';
import { createSessions } from './create-sessions.js';
import { startPrivateTmux } from './private-tmux.js';
import { binPath, startServe } from './start-serve.js';
import { waitUntil } from './wait-until.js';

export interface HooksResult {
  /** bin/the-loop-hook as the settings run it: process start → serve answered → exit, ms. */
  readonly shimSamples: number[];
  /** A bare `curl --unix-socket` POST of the same payload to the same socket, ms. */
  readonly curlSamples: number[];
  /** `the-loop hook` (node), the fallback and what every hook cost before the shim, ms. */
  readonly cliSamples: number[];
}

const event = 'UserPromptSubmit';

/**
 * The hook round trip (docs/design.md §10), the cost on the hot path between a prompt and the model's
 * request: a real `serve`, a session of its own for a real token, and the same payload posted
 * three ways, interleaved so the machine's noise falls on all three alike. Every command runs as
 * Claude Code runs a hook: `/bin/sh -c COMMAND` with the JSON on stdin.
 */
export async function measureHooks(options: {
  readonly iterations: number;
  readonly warmup: number;
  readonly cleanup: CleanupStack;
}): Promise<HooksResult> {
  const tmux = await startPrivateTmux('hooks', options.cleanup);
  const serve = await startServe({
    label: 'hooks',
    cleanup: options.cleanup,
    tmuxSocket: tmux.socket,
    config: () => ({
      harnesses: { idle: { kind: 'command', command: 'sleep', args: ['1000000'] } },
      defaults: { harness: 'idle', cwd: '.' },
      standing: { autoStart: false, allowedRoots: ['.'], sessions: [] },
      slack: { enabled: false },
    }),
  });
  await createSessions(serve.api, ['hooked'], { harness: 'idle', start: true }, 1);
  const record = await waitUntil(
    async () => {
      const text = await readFile(path.join(serve.stateRoot, 'standing', 'hooked.json'), 'utf8');
      return (JSON.parse(text) as { sessionToken?: string }).sessionToken;
    },
    { what: 'the session token in the record', timeoutMs: 10_000 },
  );
  const socket = path.join(serve.stateRoot, 'control.sock');
  const env = { ...process.env, THE_LOOP_SOCKET: socket, THE_LOOP_SESSION_TOKEN: record };
  const loopCommand = [process.execPath, binPath];
  const settings = claudeSettings(loopCommand) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  };
  const commands = {
    shim: settings.hooks[event]?.[0]?.hooks[0]?.command ?? '',
    curl:
      `curl --silent --fail --unix-socket ${shellQuote(socket)} ` +
      `-H 'Content-Type: application/json' -H "X-The-Loop-Session-Token: $THE_LOOP_SESSION_TOKEN" ` +
      `--data-binary @- http://localhost/api/v1/hooks/${event}`,
    cli: `${loopCommand.map(shellQuote).join(' ')} hook ${event}`,
  };
  const payload = JSON.stringify({
    session_id: 'bench',
    hook_event_name: event,
    prompt: '[cli · bench · 0000]\n\nnot a pending delivery',
  });
  const samples = { shim: [] as number[], curl: [] as number[], cli: [] as number[] };
  for (let index = 0; index < options.warmup + options.iterations; index += 1) {
    for (const kind of ['shim', 'curl', 'cli'] as const) {
      const ms = await runHookCommand(commands[kind], payload, env, kind);
      if (index >= options.warmup) samples[kind].push(ms);
    }
  }
  return { shimSamples: samples.shim, curlSamples: samples.curl, cliSamples: samples.cli };
}

/** Wall time from spawning `/bin/sh -c command` to its exit; refuses a run that did not reach serve. */
function runHookCommand(
  command: string,
  input: string,
  env: NodeJS.ProcessEnv,
  kind: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The shim and the CLI exit 0 whatever happens, and say on stderr when serve did not answer.
      if (code !== 0 || stderr !== '') {
        reject(new Error(`bench: the ${kind} hook failed (exit ${code}): ${stderr.trim()}`));
      } else resolve(ms);
    });
    child.stdin.end(input);
  });
}
