import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeAdapter } from '../../../src/harness/claude-adapter.js';
import { allowMcpTools, claudeMcpConfig } from '../../../src/harness/claude-mcp.js';

const claude = {
  kind: 'claude',
  command: 'claude',
  args: [],
  agent: true,
  interruptKey: 'Escape',
} as const;

async function plan(harness: typeof claude & { mcp?: boolean }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'loop-harness-'));
  const planned = await createClaudeAdapter({ newId: () => 'uuid-1' }).plan({
    tmuxName: 'loop-standing-a',
    harness,
    args: [],
    loopCommand: ['/usr/bin/node', '/opt/loop/bin/the-loop'],
    harnessDir: dir,
  });
  const settings = JSON.parse(
    await readFile(path.join(dir, 'loop-standing-a.settings.json'), 'utf8'),
  ) as { permissions: { allow: string[] } };
  return { dir, argv: planned.argv, settings, mcpPath: path.join(dir, 'loop-standing-a.mcp.json') };
}

describe('the MCP server in every claude session (docs/design.md §20)', () => {
  it('passes --mcp-config naming this the-loop with `mcp`, and allows its tools', async () => {
    const { argv, settings, mcpPath } = await plan(claude);
    const at = argv.indexOf('--mcp-config');
    expect(argv[at + 1]).toBe(mcpPath);
    // Claude Code's --mcp-config takes several values: the next argument must be a flag.
    expect(argv[at + 2]).toBe('--settings');
    expect(JSON.parse(await readFile(mcpPath, 'utf8'))).toEqual({
      mcpServers: { 'the-loop': { command: '/opt/loop/bin/the-loop', args: ['mcp'] } },
    });
    expect((await stat(mcpPath)).mode & 0o077).toBe(0);
    expect(settings.permissions.allow).toEqual(['Bash(the-loop post:*)', 'mcp__the-loop__*']);
  });

  it('`mcp: false` turns both off', async () => {
    const { argv, settings, mcpPath } = await plan({ ...claude, mcp: false });
    expect(argv).not.toContain('--mcp-config');
    expect(settings.permissions.allow).toEqual(['Bash(the-loop post:*)']);
    await expect(stat(mcpPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('adds the rule beside the rules already there, and makes a permissions block when none is', () => {
    expect(allowMcpTools({ permissions: { allow: ['A'], deny: ['B'] }, hooks: {} })).toEqual({
      permissions: { allow: ['A', 'mcp__the-loop__*'], deny: ['B'] },
      hooks: {},
    });
    expect(allowMcpTools({})).toEqual({ permissions: { allow: ['mcp__the-loop__*'] } });
    expect(claudeMcpConfig('/x/bin/the-loop')).toEqual({
      mcpServers: { 'the-loop': { command: '/x/bin/the-loop', args: ['mcp'] } },
    });
  });
});
