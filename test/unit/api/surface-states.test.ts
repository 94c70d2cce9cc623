import { describe, expect, it } from 'vitest';
import { surfaceStates, surfacesOff } from '../../../src/api/routes/surface-states.js';

describe('surfaceStates', () => {
  it('lists the control plane, the lines about surfaces off, then the surfaces on', () => {
    const rows = surfaceStates('/run/control.sock', {
      slack: { on: false, reason: 'slack: off — set SLACK_BOT_TOKEN' },
      github: { on: true, detail: 'token set', notes: ['github: webhook off'] },
    });
    expect(rows).toEqual([
      { name: 'control', state: 'ok', detail: '/run/control.sock' },
      { name: 'slack', state: 'off', detail: 'slack: off — set SLACK_BOT_TOKEN' },
      { name: 'github', state: 'degraded', detail: 'github: webhook off' },
      { name: 'github', state: 'ok', detail: 'token set' },
    ]);
    expect(surfacesOff(rows)).toEqual(['slack: off — set SLACK_BOT_TOKEN', 'github: webhook off']);
  });

  it('names a surface by its key, not by the text of its line', () => {
    const rows = surfaceStates('s', {
      slack: { on: true, detail: 'socket mode', notes: [] },
      github: { on: false, reason: 'slack-looking text about github' },
    });
    expect(rows.map((row) => [row.name, row.state])).toEqual([
      ['control', 'ok'],
      ['github', 'off'],
      ['slack', 'ok'],
    ]);
  });
});
