import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeAdapter } from '../../../src/harness/claude-adapter.js';
import { permissionModeArgument } from '../../../src/harness/claude-permission-mode.js';
import { parseConfigYaml } from '../../../src/config/parse-config-yaml.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';

const loadConfigFromText = async (text: string) =>
  resolveConfig(parseConfigYaml(text, '/etc/the-loop/config.yaml'), '/etc/the-loop/config.yaml');

const help197 =
  '(choices: "acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan")';
const help332 =
  '(choices: "acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan")';

describe('harnesses.claude.permissionMode (docs/design.md §23)', () => {
  it.each([
    ['ask', help197, 'default'],
    ['ask', help332, 'manual'],
    ['ask', '', 'default'],
    ['auto', help332, 'auto'],
    ['acceptEdits', help197, 'acceptEdits'],
    ['plan', help332, 'plan'],
  ] as const)('%s with the %s help → --permission-mode %s', (mode, help, expected) => {
    expect(permissionModeArgument(mode, help)).toBe(expected);
  });

  it('passes the mode after the harness args (a harness may wrap claude), named as the installed Claude Code knows it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'loop-mode-'));
    const asked: string[] = [];
    const adapter = createClaudeAdapter({
      newId: () => 'uuid-1',
      readHelp: async (command, args) => {
        asked.push([command, ...args].join(' '));
        return help332;
      },
    });
    const plan = await adapter.plan({
      tmuxName: 'loop-standing-a',
      harness: {
        kind: 'claude',
        command: '/opt/claude',
        args: ['--model', 'x'],
        agent: true,
        interruptKey: 'Escape',
        permissionMode: 'ask',
      },
      args: [],
      loopCommand: ['the-loop'],
      harnessDir: dir,
    });
    expect(plan.argv.slice(0, 5)).toEqual([
      '/opt/claude',
      '--model',
      'x',
      '--permission-mode',
      'manual',
    ]);
    expect(asked).toEqual(['/opt/claude --model x']);
    const unset = await adapter.plan({
      tmuxName: 'loop-standing-b',
      harness: { kind: 'claude', command: 'claude', args: [], agent: true, interruptKey: 'Escape' },
      args: [],
      loopCommand: ['the-loop'],
      harnessDir: dir,
    });
    expect(unset.argv).not.toContain('--permission-mode');
  });

  it('the config takes only ask, auto, acceptEdits and plan, and only for kind claude', async () => {
    await expect(
      loadConfigFromText('harnesses: { claude: { permissionMode: ask } }'),
    ).resolves.toMatchObject({ harnesses: { claude: { permissionMode: 'ask' } } });
    for (const refused of ['bypassPermissions', 'dontAsk', 'default', 'manual']) {
      await expect(
        loadConfigFromText(`harnesses: { claude: { permissionMode: ${refused} } }`),
      ).rejects.toThrow(/permissionMode/);
    }
    await expect(
      loadConfigFromText('harnesses: { shell: { permissionMode: ask } }'),
    ).rejects.toThrow(/kind `claude`/);
  });
});
