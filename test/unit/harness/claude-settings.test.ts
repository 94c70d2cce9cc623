import { describe, expect, it } from 'vitest';
import {
  claudeHookTable,
  claudeSettings,
  shellQuote,
} from '../../../src/harness/claude-settings.js';

describe('claude settings', () => {
  it('gives the PermissionRequest hook permissions.timeoutSeconds and a margin', () => {
    const settings = claudeSettings(['the-loop'], claudeHookTable(30)) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>;
    };
    expect(settings.hooks['PermissionRequest']?.[0]?.hooks[0]?.command).toContain(
      ' PermissionRequest 45 ',
    );
    expect(settings.hooks['PermissionRequest']?.[0]?.hooks[0]?.timeout).toBe(49);
  });
  it('quotes every argument for the shell', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(JSON.stringify(claudeSettings(['x y']))).toContain("SessionStart 0.7 'x y'");
  });
});
