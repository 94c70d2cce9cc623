import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { PrivateTmux } from '../../helpers/private-tmux.js';

const AGENT = fileURLToPath(new URL('../../fakes/fake-agent.mjs', import.meta.url));
const EXIT_WAIT_MS = 15_000;

export interface AgentPane {
  readonly name: string;
  /** Delivers text the way the delivery core does: a named buffer pasted bracketed, then Enter. */
  say(text: string): Promise<void>;
  /** `send-keys` with tmux key names (`Escape`, `C-c`, `Enter`). */
  keys(...keys: string[]): Promise<void>;
  /** `send-keys -l`: literal characters, as typed. */
  type(text: string): Promise<void>;
  /** The pane's text, history included. */
  capture(): Promise<string>;
  /** Waits (polling tmux) for the agent process to end and returns its exit status. */
  exitStatus(): Promise<number>;
}

export interface AgentPaneOptions {
  args?: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

/**
 * Starts the fake agent in a new session of the private server. Dead panes stay (remain-on-exit)
 * so their exit status can be read.
 */
export async function startAgentPane(
  tmux: PrivateTmux,
  { args = [], env, cwd }: AgentPaneOptions,
): Promise<AgentPane> {
  const name = `agent-${randomUUID().slice(0, 8)}`;
  const target = `=${name}:`;
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  await tmux.run([
    'start-server',
    ';',
    'set-option',
    '-g',
    'remain-on-exit',
    'on',
    ';',
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    '200',
    '-y',
    '50',
    '-c',
    cwd,
    ...envArgs,
    '--',
    process.execPath,
    AGENT,
    ...args,
  ]);
  return {
    name,
    async say(text) {
      const buffer = `say-${randomUUID()}`;
      await tmux.run(['load-buffer', '-b', buffer, '-'], text);
      await tmux.run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', target]);
      await tmux.run(['send-keys', '-t', target, 'Enter']);
    },
    async keys(...keys) {
      await tmux.run(['send-keys', '-t', target, ...keys]);
    },
    async type(text) {
      await tmux.run(['send-keys', '-t', target, '-l', text]);
    },
    capture() {
      // From the start of history: tmux scrolls a dead pane's screen away before "Pane is dead".
      return tmux.run(['capture-pane', '-p', '-S', '-', '-t', target]);
    },
    async exitStatus() {
      const deadline = Date.now() + EXIT_WAIT_MS;
      for (;;) {
        const format = '#{pane_dead} #{pane_dead_status}';
        const [dead, status] = (await tmux.run(['display-message', '-p', '-t', target, format]))
          .trim()
          .split(' ');
        if (status !== undefined && status !== '') return Number(status);
        // tmux 3.3a sometimes misses the SIGCHLD of a pane that exits quickly: the pane shows
        // dead (pty closed) with no status, and no pane-died hook fires. Any later child exit
        // makes it reap every exited child, so give it one.
        if (dead === '1') await tmux.run(['run-shell', 'true']);
        if (Date.now() > deadline) throw new Error(`pane ${name} did not exit`);
        await delay(20);
      }
    },
  };
}
