import { describe, expect, it } from 'vitest';
import { createCommandAdapter } from '../../../src/harness/command-adapter.js';

describe('command adapter', () => {
  it('runs the configured argv and waits for the ready pattern', async () => {
    const plan = await createCommandAdapter().plan({
      tmuxName: 't',
      harness: {
        kind: 'command',
        command: 'bash',
        args: ['--norc'],
        agent: false,
        interruptKey: 'C-c',
        readyPattern: '\\$ $',
      },
      args: ['-i'],
      loopCommand: [],
      harnessDir: '/nowhere',
    });
    expect(plan.argv).toEqual(['bash', '--norc', '-i']);
    expect(plan.conversationId).toBeUndefined();
    expect(plan.confirms).toBe(false);
    expect(plan.readiness.kind === 'screen' && plan.readiness.pattern?.test('x\nuser$ ')).toBe(
      true,
    );
  });
});
