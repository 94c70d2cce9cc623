import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { createInputBox } from '../../../src/delivery/input-box.js';
import { createScreenBlocks } from '../../../src/delivery/screen-blocks.js';
import { isUnreadable, readClaudeScreen, screenHead } from '../../../src/harness/claude-screen.js';
import { unreadableScreenNotice } from '../../../src/replies/start-dialog-notice.js';
import { watchStartDialogs } from '../../../src/sessions/watch-start-dialogs.js';
import { createFakeTmuxDriver } from '../../fakes/fake-tmux-driver.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { eventually } from '../../helpers/eventually.js';

const screen = (name: string) =>
  readFileSync(path.resolve('test/fixtures/claude-screens', `${name}.txt`), 'utf8');

/** A session `t` whose screen the test sets, on the in-memory driver; keys are recorded. */
function pane(initial: string) {
  const driver = createFakeTmuxDriver();
  driver.sessions.set('t', { name: 't', state: 'live', owner: 'o', argv: [], pasted: [] });
  const shown = { text: initial };
  const keys: string[] = [];
  return {
    driver: {
      ...driver,
      capture: async () => shown.text,
      attachedClients: async () => 0,
      sendKeys: async (_name: string, _owner: string, pressed: readonly string[]) => {
        keys.push(...pressed);
      },
    },
    shown,
    keys,
  };
}

describe('a screen the-loop cannot read (docs/design.md §13, §23)', () => {
  it("2.1.332's --add-dir dialog is unreadable; its known dialogs and input box are not", () => {
    const addDir = screen('add-dir-2.1.332');
    expect(isUnreadable(addDir, readClaudeScreen(addDir))).toBe(true);
    expect(screenHead(addDir)).toEqual([
      'Adding a new directory:',
      '/tmp/cc332-hand/extra',
      "This session hasn't worked here before. Is this a directory you created or one you trust?",
      "Claude Code'll be able to read, edit, and execute files here. Its skills, commands, and agents",
    ]);
    for (const name of ['trust-2.1.332', 'api-key-2.1.332', 'idle-empty-2.1.332', 'trust']) {
      const capture = screen(name);
      expect(isUnreadable(capture, readClaudeScreen(capture)), name).toBe(false);
    }
    expect(isUnreadable('', readClaudeScreen(''))).toBe(false);
  });

  it('reads 2.1.332 screens as it reads 2.1.197 ones: the start dialogs and the empty box', () => {
    expect(readClaudeScreen(screen('trust-2.1.332')).dialog).toBe('trust');
    expect(readClaudeScreen(screen('api-key-2.1.332')).dialog).toBe('api-key');
    expect(readClaudeScreen(screen('idle-empty-2.1.332'))).toMatchObject({ box: '', busy: false });
    expect(readClaudeScreen(screen('idle-empty')).box).toBe('');
  });

  it('the notice quotes the first lines and names the attach line with the socket', () => {
    const notice = unreadableScreenNotice(['Adding a new directory:', '/x'], {
      tmuxName: 'loop-standing-x',
      tmuxSocket: 'work',
    });
    expect(notice).toContain('> Adding a new directory:\n> /x\n');
    expect(notice).toContain("`tmux -L work attach -t '=loop-standing-x'`");
  });

  it('at start: blocks after the unknown screen stays a while, told once, no key pressed', async () => {
    const { driver, shown, keys } = pane(screen('add-dir-2.1.332'));
    const states = createAgentStates();
    states.spawned('t', 'standing:x');
    const told: (readonly string[])[] = [];
    const blocks = createScreenBlocks({
      driver,
      states,
      logger: captureLogger().logger,
      onBlocked: (_session, head) => told.push(head),
      pollMs: 20,
    });
    await watchStartDialogs({
      driver,
      states,
      tmuxName: 't',
      screen: readClaudeScreen,
      timeoutMs: 10_000,
      unknownScreenMs: 100,
      onUnreadable: (capture) => blocks.unreadable({ tmuxName: 't' }, capture, readClaudeScreen),
      logger: captureLogger().logger,
      pollMs: 20,
    });
    expect(states.state('t')).toBe('blocked');
    expect(told).toHaveLength(1);
    expect(told[0]?.[0]).toBe('Adding a new directory:');
    expect(blocks.reason('t')?.[0]).toBe('Adding a new directory:');
    // Someone answers in the terminal: the box is back, the session is no longer blocked.
    shown.text = screen('idle-empty-2.1.332');
    await eventually(async () => states.state('t') === 'idle', { what: 'unblocked' });
    expect(blocks.reason('t')).toBeUndefined();
    expect(keys).toEqual([]);
  });

  it('later: a delivery meeting an unknown screen blocks and waits, never a timeout, never a key', async () => {
    const { driver, shown, keys } = pane(screen('add-dir-2.1.332'));
    const states = createAgentStates();
    states.signal('t', 'ready', 'standing:x');
    const told: string[] = [];
    const blocks = createScreenBlocks({
      driver,
      states,
      logger: captureLogger().logger,
      onBlocked: (session) => told.push(session.ref ?? ''),
      pollMs: 20,
    });
    const box = createInputBox({
      driver,
      draftWaitMs: 1_000,
      noBoxTimeoutMs: 100,
      press: async (_target, key) => {
        keys.push(key);
      },
      unreadable: (target, capture) => blocks.unreadable(target, capture, target.screen),
    });
    const held: string[] = [];
    const emptied = box.emptyBox(
      { tmuxName: 't', ref: 'standing:x', owner: 'o', screen: readClaudeScreen },
      (reason) => held.push(reason),
      undefined,
    );
    await eventually(async () => states.state('t') === 'blocked', { what: 'blocked' });
    // Far past noBoxTimeoutMs: still waiting, told once.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(told).toEqual(['standing:x']);
    expect(held).toContain('dialog');
    shown.text = screen('idle-empty-2.1.332');
    await expect(emptied).resolves.toMatchObject({ box: '' });
    await eventually(async () => states.state('t') === 'idle', { what: 'unblocked' });
    expect(keys).toEqual([]);
  });
});
