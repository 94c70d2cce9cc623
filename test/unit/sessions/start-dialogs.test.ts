import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { readClaudeScreen } from '../../../src/harness/claude-screen.js';
import { injectedPrompt } from '../../../src/harness/read-injected-prompts.js';
import { watchStartDialogs, type StartDialog } from '../../../src/sessions/watch-start-dialogs.js';
import { startDialogNotice } from '../../../src/replies/start-dialog-notice.js';
import { createFakeTmuxDriver } from '../../fakes/fake-tmux-driver.js';
import { captureLogger } from '../../helpers/capture-logger.js';

const screen = (name: string) =>
  readFileSync(path.resolve('test/fixtures/claude-screens', `${name}.txt`), 'utf8');

/** A session `t` whose screen the test sets, on the in-memory driver. */
function pane(initial: string) {
  const driver = createFakeTmuxDriver();
  driver.sessions.set('t', { name: 't', state: 'live', owner: 'o', argv: [], pasted: [] });
  const shown = { text: initial };
  return {
    driver: { ...driver, capture: async () => shown.text },
    shown,
    sessions: driver.sessions,
  };
}

describe('watchStartDialogs (docs/design.md §13 blocked)', () => {
  it.each<[string, StartDialog]>([
    ['trust', 'trust'],
    ['api-key', 'api-key'],
  ])(
    'a %s dialog before SessionStart blocks the session and is told once',
    async (name, dialog) => {
      const { driver } = pane(screen(name));
      const states = createAgentStates();
      states.spawned('t');
      const told: StartDialog[] = [];
      const watching = watchStartDialogs({
        driver,
        states,
        tmuxName: 't',
        screen: readClaudeScreen,
        timeoutMs: 5_000,
        onDialog: (seen) => told.push(seen),
        logger: captureLogger().logger,
        pollMs: 5,
      });
      while (states.state('t') !== 'blocked') await states.changed('t');
      // Still on screen a while later: not told again.
      await new Promise((resolve) => setTimeout(resolve, 30));
      states.ready('t');
      await watching;
      expect(told).toEqual([dialog]);
      expect(states.state('t')).toBe('idle');
    },
  );

  it('leaves a session that starts without a dialog alone', async () => {
    const { driver } = pane(screen('idle-empty'));
    const states = createAgentStates();
    states.spawned('t');
    const watching = watchStartDialogs({
      driver,
      states,
      tmuxName: 't',
      screen: readClaudeScreen,
      timeoutMs: 5_000,
      logger: captureLogger().logger,
      pollMs: 5,
    });
    states.ready('t');
    await watching;
    expect(states.state('t')).toBe('idle');
  });

  it('reports the harness exited when its pane dies behind the dialog ("No, exit")', async () => {
    const { driver, sessions } = pane(screen('trust'));
    const states = createAgentStates();
    states.spawned('t');
    const watching = watchStartDialogs({
      driver,
      states,
      tmuxName: 't',
      screen: readClaudeScreen,
      timeoutMs: 5_000,
      logger: captureLogger().logger,
      pollMs: 5,
    });
    while (states.state('t') !== 'blocked') await states.changed('t');
    sessions.set('t', { name: 't', state: 'dead', owner: 'o', argv: [], pasted: [] });
    await watching;
    expect(states.state('t')).toBe('exited');
  });

  it('a blocked session holds a waiter past the start-up deadline, telling why once', async () => {
    const states = createAgentStates();
    states.spawned('t');
    states.blocked('t');
    const held: string[] = [];
    const waiting = states.waitUntilTypeable('t', {
      startingTimeoutMs: 10,
      onHeld: (reason) => held.push(reason),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    states.ready('t');
    await waiting;
    expect(held).toEqual(['dialog']);
  });
});

describe('startDialogNotice', () => {
  it('names the dialog and how to answer it, with the socket when there is one', () => {
    const notice = startDialogNotice('trust', { tmuxName: 'loop-standing-x', tmuxSocket: 's1' });
    expect(notice).toContain('whether to trust the folder');
    expect(notice).toContain("`tmux -L s1 attach -t '=loop-standing-x'`");
    expect(startDialogNotice('api-key', { tmuxName: 'loop-standing-x' })).toContain(
      "`tmux attach -t '=loop-standing-x'`",
    );
  });
});

describe('injectedPrompt (a message Claude Code took into a running turn)', () => {
  const line = (entry: unknown) => JSON.stringify(entry);
  it.each<[string, string | undefined]>([
    [
      line({
        type: 'attachment',
        attachment: {
          type: 'queued_command',
          prompt: '[cli · ana · 02be]\n\nhi',
          commandMode: 'prompt',
        },
      }),
      '[cli · ana · 02be]\n\nhi',
    ],
    // Typed, not yet taken: only the attachment says the turn took it.
    [
      line({ type: 'queue-operation', operation: 'enqueue', content: 'queued_command hi' }),
      undefined,
    ],
    [
      line({ type: 'attachment', attachment: { type: 'file', prompt: 'queued_command' } }),
      undefined,
    ],
    [line({ type: 'attachment', attachment: { type: 'queued_command' } }), undefined],
    ['{"type":"attachment" queued_command', undefined],
  ])('%s', (text, expected) => {
    expect(injectedPrompt(text)).toBe(expected);
  });
});
