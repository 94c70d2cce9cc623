import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { createPrivateTmux, type PrivateTmux } from '../helpers/private-tmux.js';
import {
  startFakeAnthropic,
  type FakeAnthropic,
} from '../fakes/fake-anthropic/start-fake-anthropic.js';
import { claudeCodeBinary } from './claude-code-install.js';
import { claudeEnv, seedClaudeHome } from './scratch-home.js';
import { askModeArgument } from './claude-dialog-keys.js';

/** Every hook event Claude Code 2.1.197 has that matters to the-loop. */
const CAPTURED = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'Notification',
  'PreToolUse',
  'PostToolUse',
  'PermissionRequest',
  'SessionEnd',
] as const;

export interface HookCall {
  readonly event: string;
  readonly at: number;
  readonly input: Record<string, unknown>;
}

/**
 * The real Claude Code alone in a pane of a private tmux server, without the-loop: for pinning down
 * how the client behaves (test/real/FINDINGS.md), so a new version that behaves differently fails
 * here first. Every hook appends its stdin to a file, as a tiny shell command.
 */
export interface ClaudePane {
  readonly fake: FakeAnthropic;
  readonly tmux: PrivateTmux;
  readonly dir: string;
  readonly work: string;
  readonly untrusted: string;
  /** The sessions launched so far, newest last. */
  readonly sessions: readonly string[];
  /** Starts Claude Code in a new session; resolves with the session name. */
  launch(options?: { cwd?: string; apiKey?: string }): Promise<string>;
  /** load-buffer + `paste-buffer -p -d`, as the delivery core pastes. */
  paste(session: string, text: string): Promise<void>;
  keys(session: string, ...keys: string[]): Promise<void>;
  /**
   * Pastes a short one-line text and submits it the careful way: Enter only once the box shows the
   * paste, and Enter again while the box still holds it (FINDINGS (d): an early Enter is dropped).
   * Resolves with how many Enters it took.
   */
  submit(session: string, text: string): Promise<number>;
  /** `capture-pane -p`, trailing blank lines removed. */
  screen(session: string): Promise<string>;
  waitForScreen(session: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  hooks(): Promise<HookCall[]>;
  /** The first hook call that matches, among those after the first `since` calls. */
  waitForHook(
    matches: (call: HookCall) => boolean,
    what: string,
    options?: { since?: number; timeoutMs?: number },
  ): Promise<HookCall>;
  dispose(): Promise<void>;
}

export async function startClaudePane(): Promise<ClaudePane> {
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-real-pane-'));
  const home = path.join(dir, 'home');
  const work = path.join(dir, 'work');
  const untrusted = path.join(dir, 'untrusted');
  await mkdir(work, { recursive: true });
  await mkdir(untrusted, { recursive: true });
  await seedClaudeHome({ home, trusted: [work] });
  const askMode = askModeArgument();
  const hooksFile = path.join(dir, 'hooks.jsonl');
  const hookScript = path.join(dir, 'hook.sh');
  await writeFile(
    hookScript,
    [
      '#!/bin/sh',
      '# Appends the hook input (one line of JSON) with the event name and the time in ms.',
      'input=$(cat)',
      `printf '{"event":"%s","at":%s,"input":%s}\\n' "$1" "$(date +%s%3N)" "$input" >> '${hooksFile}'`,
      '',
    ].join('\n'),
  );
  await chmod(hookScript, 0o755);
  const settings = path.join(dir, 'settings.json');
  const hooks = Object.fromEntries(
    CAPTURED.map((event) => [
      event,
      [
        {
          matcher: '',
          hooks: [{ type: 'command', command: `${hookScript} ${event}`, timeout: 5 }],
        },
      ],
    ]),
  );
  await writeFile(settings, JSON.stringify({ hooks }));

  const fake = await startFakeAnthropic();
  const tmux = createPrivateTmux();

  const sessions: string[] = [];
  const pane: ClaudePane = {
    sessions,
    fake,
    tmux,
    dir,
    work,
    untrusted,
    async launch(options = {}) {
      const name = `claude-${randomUUID().slice(0, 8)}`;
      sessions.push(name);
      const env = claudeEnv({
        home,
        baseUrl: fake.url,
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      });
      await tmux.run([
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        '100',
        '-y',
        '30',
        '-c',
        options.cwd ?? work,
        'env',
        ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
        claudeCodeBinary(),
        '--settings',
        settings,
        // The facts about permission dialogs need every call to ask (2.1.332 defaults to auto).
        '--permission-mode',
        askMode,
      ]);
      return name;
    },
    async paste(session, text) {
      const buffer = `real-${randomUUID().slice(0, 8)}`;
      await tmux.run(['load-buffer', '-b', buffer, '-'], text);
      await tmux.run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', `=${session}:`]);
    },
    async keys(session, ...keys) {
      await tmux.run(['send-keys', '-t', `=${session}:`, ...keys]);
    },
    async submit(session, text) {
      const shown = `❯\u00a0${text.replace(/\t/g, '    ')}`;
      const holds = async () => (await pane.screen(session)).split('\n').includes(shown);
      await pane.paste(session, text);
      await eventually(holds, {
        timeoutMs: 10_000,
        what: `the box to show ${JSON.stringify(text)}`,
      });
      for (let enters = 1; enters <= 4; enters += 1) {
        await pane.keys(session, 'Enter');
        const gone = await eventually(async () => !(await holds()), {
          timeoutMs: 1_500,
          intervalMs: 50,
        }).catch(() => false);
        if (gone) return enters;
      }
      throw new Error(
        `Enter did not submit ${JSON.stringify(text)}:\n${await pane.screen(session)}`,
      );
    },
    async screen(session) {
      return (await tmux.run(['capture-pane', '-p', '-t', `=${session}:`])).replace(/\n+$/, '');
    },
    waitForScreen(session, pattern, timeoutMs = 20_000) {
      return eventually(
        async () => {
          const screen = await pane.screen(session);
          return pattern.test(screen) ? screen : undefined;
        },
        { timeoutMs, intervalMs: 100, what: `the screen to show ${String(pattern)}` },
      );
    },
    async hooks() {
      const text = await readFile(hooksFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as HookCall);
    },
    waitForHook(matches, what, options = {}) {
      return eventually(async () => (await pane.hooks()).slice(options.since ?? 0).find(matches), {
        timeoutMs: options.timeoutMs ?? 30_000,
        intervalMs: 50,
        what,
      });
    },
    async dispose() {
      await tmux.dispose();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return pane;
}
