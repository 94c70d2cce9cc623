import { describe, expect, it } from 'vitest';
import type { AgentScreen } from '../../../src/harness/claude-screen.js';
import { createPermissionRegistry } from '../../../src/permissions/create-permission-registry.js';
import {
  judgeLook,
  watchTerminalAnswers,
} from '../../../src/permissions/watch-terminal-answers.js';
import { createMemoryEventLog } from '../../../src/state/memory-event-log.js';
import { captureLogger } from '../../helpers/capture-logger.js';

const dialog: AgentScreen = { box: undefined, dialog: 'permission', busy: false, queued: false };
const box: AgentScreen = { box: '', busy: true, queued: false };

describe('judgeLook', () => {
  it.each([
    ['a dialog on screen resets the count', 1, dialog, { gone: 0, ended: false }],
    ['one look without it is not enough (a redraw)', 0, box, { gone: 1, ended: false }],
    ['the second look in a row ends the requests', 1, box, { gone: 2, ended: true }],
    ['an unreadable screen changes nothing', 1, undefined, { gone: 1, ended: false }],
    [
      'another dialog is not the permission one',
      1,
      { ...box, dialog: 'menu' },
      { gone: 2, ended: true },
    ],
  ] as const)('%s', (_name, previous, screen, expected) => {
    expect(judgeLook(previous, screen)).toEqual(expected);
  });
});

describe('watchTerminalAnswers', () => {
  const setup = (screens: (AgentScreen | undefined)[]) => {
    let clock = Date.parse('2026-12-01T10:00:00.000Z');
    const registry = createPermissionRegistry({
      timeoutMs: 600_000,
      events: createMemoryEventLog(),
      logger: captureLogger().logger,
      now: () => clock,
    });
    const looked: string[] = [];
    const watcher = watchTerminalAnswers({
      registry,
      look: async (ref) => {
        looked.push(ref);
        return screens.shift();
      },
      intervalMs: 1_000,
      logger: captureLogger().logger,
      now: () => clock,
    });
    const ask = { tool: 'Bash', toolInput: { command: 'make' }, suggestions: [] };
    return { registry, watcher, looked, ask, advance: (ms: number) => (clock += ms) };
  };

  it('ends a session’s open requests as terminal once the dialog left the screen twice', async () => {
    const { registry, watcher, looked, ask, advance } = setup([dialog, box, box]);
    const { outcome } = registry.open('standing:a', ask);
    await watcher.check();
    expect(looked).toEqual([]); // the dialog is given time to appear
    advance(2_500);
    await watcher.check();
    await watcher.check();
    expect(registry.hasOpenRequest('standing:a')).toBe(true);
    await watcher.check();
    expect(registry.hasOpenRequest('standing:a')).toBe(false);
    await expect(outcome).resolves.toMatchObject({ kind: 'expired', reason: 'terminal' });
    expect(looked).toEqual(['standing:a', 'standing:a', 'standing:a']);
  });

  it('leaves the requests open while the screen cannot be read', async () => {
    const { registry, watcher, ask, advance } = setup([undefined, undefined, undefined]);
    registry.open('standing:a', ask);
    advance(5_000);
    for (let look = 0; look < 3; look += 1) await watcher.check();
    expect(registry.hasOpenRequest('standing:a')).toBe(true);
  });

  it('looks at nothing when no request is open', async () => {
    const { watcher, looked } = setup([]);
    await watcher.check();
    expect(looked).toEqual([]);
  });
});
