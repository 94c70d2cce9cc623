import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootPrompt, standingBootDirective } from '../../../src/harness/boot-directive.js';
import { createClaudeAdapter } from '../../../src/harness/claude-adapter.js';
import {
  claudeHookTable,
  claudeHooksVersion,
  claudeSettings,
  shellQuote,
} from '../../../src/harness/claude-settings.js';
import { createCommandAdapter } from '../../../src/harness/command-adapter.js';
import { assistantText } from '../../../src/harness/read-last-assistant-message.js';

const claude = {
  kind: 'claude',
  command: 'claude',
  args: ['--model', 'x'],
  agent: true,
  interruptKey: 'Escape',
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

  it("gives Claude Code the session's files folder with --add-dir, created private", async () => {
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
    expect(plan.argv.slice(-2)).toEqual(['--add-dir', folder]);
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

describe('boot directive', () => {
  const directive = standingBootDirective({
    name: 'sup',
    tmuxName: 'loop-standing-sup',
    instance: 'laptop-b',
    slackThread: true,
  });
  it('names the session, says it owns no work item, and how people reach it and how to answer', () => {
    expect(directive).toContain('`sup`');
    expect(directive).toContain('laptop-b');
    expect(directive).toContain('own no GitHub issue');
    expect(directive).toContain('Slack thread');
    expect(directive).toContain('the-loop standing say sup');
    expect(directive).toContain("tmux attach -t '=loop-standing-sup'");
    expect(directive).toContain('the-loop post');
  });
  it('appends the brief after the directive, which the brief cannot remove', () => {
    expect(bootPrompt(directive, '  Watch the builds.  ')).toBe(
      `${directive}\n\nWatch the builds.`,
    );
    expect(bootPrompt(directive, '')).toBe(directive);
    expect(bootPrompt(directive, undefined)).toBe(directive);
  });
});

describe('claude settings and transcripts', () => {
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
  it.each([
    [
      '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_use"}]}}',
      'hi',
    ],
    ['{"type":"assistant","message":{"content":"plain"}}', 'plain'],
    ['{"type":"user","message":{"content":"no"}}', undefined],
    ['not json', undefined],
  ])('assistantText(%s)', (line, expected) => {
    expect(assistantText(line)).toBe(expected);
  });
});
