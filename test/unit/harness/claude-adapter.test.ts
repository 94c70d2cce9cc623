import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeAdapter } from '../../../src/harness/claude-adapter.js';
import { claudeHooksVersion } from '../../../src/harness/claude-settings.js';
const claude = {
  kind: 'claude',
  command: 'claude',
  args: ['--model', 'x'],
  agent: true,
  interruptKey: 'Escape',
  // The MCP server's file and flag have their own test (claude-mcp.test.ts).
  mcp: false,
} as const;

describe('claude adapter', () => {
  it('starts fresh with --session-id and installs hooks through --settings', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-harness-'));
    const plan = await createClaudeAdapter({ newId: () => 'uuid-1' }).plan({
      tmuxName: 'loop-standing-a',
      harness: claude,
      args: ['--permission-mode', 'plan'],
      loopCommand: ['/usr/bin/node', "/opt/it's/bin/the-loop"],
      harnessDir: dir,
    });
    const settingsPath = path.join(dir, 'loop-standing-a.settings.json');
    expect(plan.argv).toEqual([
      'claude',
      '--model',
      'x',
      '--permission-mode',
      'plan',
      '--session-id',
      'uuid-1',
      '--settings',
      settingsPath,
    ]);
    expect(plan).toMatchObject({
      conversationId: 'uuid-1',
      resuming: false,
      confirms: true,
      readiness: { kind: 'hook' },
    });
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>;
      permissions: { allow: string[] };
    };
    expect(Object.keys(settings.hooks).sort()).toEqual([
      'Notification',
      'PermissionRequest',
      'PostToolUse',
      'PreToolUse',
      'SessionStart',
      'Stop',
      'UserPromptSubmit',
    ]);
    // The shim beside bin/the-loop, with the event, its wait and the CLI to fall back to.
    expect(settings.hooks['Stop']?.[0]?.hooks[0]).toEqual({
      type: 'command',
      command: `'/opt/it'\\''s/bin/the-loop-hook' Stop 0.7 '/usr/bin/node' '/opt/it'\\''s/bin/the-loop'`,
      timeout: 5,
    });
    expect(settings.permissions.allow).toEqual(['Bash(the-loop post:*)']);
    expect(plan.hooksVersion).toBe(claudeHooksVersion());
    // The one blocking hook waits past serve's own timeout (600 s by default); the others stay short.
    expect(settings.hooks['PermissionRequest']?.[0]?.hooks[0]?.command).toContain(
      ' PermissionRequest 615 ',
    );
    expect(settings.hooks['PermissionRequest']?.[0]?.hooks[0]?.timeout).toBe(619);
  });

  it("gives Claude Code the session's files folder in its settings, created private, never --add-dir", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-harness-'));
    const filesRoot = path.join(dir, 'files');
    const plan = await createClaudeAdapter({ newId: () => 'uuid-2', filesRoot }).plan({
      tmuxName: 'loop-standing-b',
      harness: claude,
      args: [],
      loopCommand: ['/usr/bin/node', '/opt/bin/the-loop'],
      harnessDir: dir,
    });
    const folder = path.join(filesRoot, 'loop-standing-b');
    // `--add-dir` opens a trust dialog on Claude Code 2.1.332 (docs/design.md §23).
    expect(plan.argv).not.toContain('--add-dir');
    const settings = JSON.parse(
      await readFile(path.join(dir, 'loop-standing-b.settings.json'), 'utf8'),
    ) as { permissions: { allow: string[]; additionalDirectories?: string[] } };
    // Only the-loop's own folder: the session's cwd stays the user's decision.
    expect(settings.permissions.additionalDirectories).toEqual([folder]);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });

  it('resumes a known conversation with --resume', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-harness-'));
    const plan = await createClaudeAdapter().plan({
      tmuxName: 't',
      harness: claude,
      args: [],
      conversationId: 'abc',
      loopCommand: ['the-loop'],
      harnessDir: dir,
    });
    expect(plan.argv.slice(3, 5)).toEqual(['--resume', 'abc']);
    expect(plan).toMatchObject({ conversationId: 'abc', resuming: true });
  });
});
