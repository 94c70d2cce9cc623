import { describe, expect, it } from 'vitest';
import type { RawHarness } from '../../../src/config/raw-config.js';
import { builtinHarnesses, resolveHarnesses } from '../../../src/config/resolve-harnesses.js';
import type { HarnessConfig } from '../../../src/config/types.js';

const claude: HarnessConfig = {
  kind: 'claude',
  command: 'claude',
  args: [],
  agent: true,
  interruptKey: 'Escape',
};
const shell: HarnessConfig = {
  kind: 'command',
  command: 'bash',
  args: ['--norc'],
  agent: false,
  interruptKey: 'C-c',
};

interface Row {
  readonly name: string;
  readonly configured: Record<string, RawHarness>;
  readonly expected: Record<string, HarnessConfig>;
}

const rows: Row[] = [
  { name: 'nothing configured: the built-ins', configured: {}, expected: { claude, shell } },
  {
    name: 'the built-ins restated change nothing',
    configured: { claude, shell },
    expected: { claude, shell },
  },
  {
    name: 'claude with extra arguments keeps the rest of the built-in',
    configured: { claude: { args: ['--model', 'opus'] } },
    expected: { claude: { ...claude, args: ['--model', 'opus'] }, shell },
  },
  {
    name: 'shell with another program starts from no arguments (--norc is bash’s)',
    configured: { shell: { command: 'sh' } },
    expected: { claude, shell: { ...shell, command: 'sh', args: [] } },
  },
  {
    name: 'shell with another program and its own arguments takes those',
    configured: { shell: { command: 'zsh', args: ['-f'] } },
    expected: { claude, shell: { ...shell, command: 'zsh', args: ['-f'] } },
  },
  {
    name: 'shell naming its own program again keeps the built-in arguments',
    configured: { shell: { command: 'bash', interruptKey: 'C-d' } },
    expected: { claude, shell: { ...shell, interruptKey: 'C-d' } },
  },
  {
    name: 'a new command harness: plain, C-c, no arguments',
    configured: { codex: { command: 'codex' } },
    expected: {
      claude,
      shell,
      codex: { kind: 'command', command: 'codex', args: [], agent: false, interruptKey: 'C-c' },
    },
  },
  {
    name: 'a new command harness that reads prompts',
    configured: { codex: { kind: 'command', command: 'codex', agent: true, readyPattern: '> $' } },
    expected: {
      claude,
      shell,
      codex: {
        kind: 'command',
        command: 'codex',
        args: [],
        agent: true,
        interruptKey: 'C-c',
        readyPattern: '> $',
      },
    },
  },
  {
    name: 'a new claude harness: agent, Escape',
    configured: {
      opus: { kind: 'claude', command: '/opt/claude/bin/claude', args: ['--model', 'opus'] },
    },
    expected: {
      claude,
      shell,
      opus: {
        kind: 'claude',
        command: '/opt/claude/bin/claude',
        args: ['--model', 'opus'],
        agent: true,
        interruptKey: 'Escape',
      },
    },
  },
  {
    name: 'claude turned into a command takes the command kind defaults',
    configured: { claude: { kind: 'command' } },
    expected: {
      claude: { kind: 'command', command: 'claude', args: [], agent: false, interruptKey: 'C-c' },
      shell,
    },
  },
  {
    name: 'explicit keys win over the kind defaults',
    configured: { shell: { agent: true, interruptKey: 'C-d' } },
    expected: { claude, shell: { ...shell, agent: true, interruptKey: 'C-d' } },
  },
];

describe('resolveHarnesses', () => {
  it.each(rows)('$name', ({ configured, expected }) => {
    const { harnesses, issues } = resolveHarnesses(configured);
    expect(issues).toEqual([]);
    expect({ ...harnesses }).toEqual(expected);
  });

  it('the built-ins are the ones docs/design.md §3.3 names', () => {
    expect(builtinHarnesses()).toEqual({ claude, shell });
  });

  it('a new harness needs a command', () => {
    const { issues } = resolveHarnesses({ codex: { agent: true } });
    expect(issues).toEqual([
      expect.objectContaining({ path: 'harnesses.codex.command', code: 'missing_key' }),
    ]);
  });

  it('refuses a readyPattern that does not compile', () => {
    const { issues } = resolveHarnesses({ shell: { readyPattern: '[' } });
    expect(issues).toEqual([
      expect.objectContaining({ path: 'harnesses.shell.readyPattern', code: 'invalid_value' }),
    ]);
  });
});
