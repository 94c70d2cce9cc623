import { describe, expect, it } from 'vitest';
import { mayDecide } from '../../../src/permissions/decisions.js';
import {
  describeSuggestions,
  maxSummaryChars,
  summarizeToolInput,
} from '../../../src/permissions/describe-request.js';
import { newPermissionId, parsePermissionId } from '../../../src/permissions/permission-types.js';

describe('summarizeToolInput', () => {
  it.each([
    ['Bash', { command: 'npm test', description: 'Run tests' }, '$ npm test'],
    [
      'Edit',
      { file_path: '/w/a.ts', old_string: 'abc', new_string: 'abcdef' },
      '/w/a.ts: replaces 3 characters with 6 characters',
    ],
    [
      'Edit',
      { file_path: '/w/a.ts', old_string: 'x', new_string: '', replace_all: true },
      '/w/a.ts: replaces 1 character with 0 characters (every match)',
    ],
    ['Write', { file_path: '/w/b.md', content: 'hello' }, '/w/b.md: writes 5 characters'],
    ['MultiEdit', { file_path: '/w/c.ts', edits: [{}, {}] }, '/w/c.ts: 2 edits'],
    ['Read', { file_path: '/etc/passwd' }, '/etc/passwd'],
    ['WebFetch', { url: 'https://example.com/x', prompt: 'p' }, 'https://example.com/x'],
    ['Grep', { pattern: 'TODO', path: 'src' }, 'TODO in src'],
    ['mcp__db__query', { sql: 'select 1' }, '{"sql":"select 1"}'],
    ['Bash', {}, '{}'],
    ['Bash', 'not an object', '{}'],
  ])('%s %j → %s', (tool, input, expected) => {
    expect(summarizeToolInput(tool, input)).toBe(expected);
  });

  it('never shows what a Write puts in the file', () => {
    expect(summarizeToolInput('Write', { file_path: '/a', content: 'SECRET=1' })).not.toContain(
      'SECRET',
    );
  });

  it('removes terminal controls and invisible marks', () => {
    const summary = summarizeToolInput('Bash', {
      command: 'echo \u001b[31mred\u001b[0m\u0007 \u202eevil\u200b',
    });
    expect(summary).toBe('$ echo [31mred[0m evil');
  });

  it.each([1_499, 1_500, 1_501, 100_000])(
    'stays within 1,500 characters for a %i-character command',
    (length) => {
      const summary = summarizeToolInput('Bash', { command: 'x'.repeat(length) });
      expect([...summary].length).toBeLessThanOrEqual(maxSummaryChars);
      if (length + 2 > maxSummaryChars) expect(summary.endsWith('…')).toBe(true);
    },
  );

  it('does not split a surrogate pair when it cuts', () => {
    const summary = summarizeToolInput('Bash', { command: '😀'.repeat(2_000) });
    expect(summary).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('permission ids', () => {
  it('are p- and 10 base32 characters', () => {
    for (let index = 0; index < 200; index += 1) {
      expect(newPermissionId()).toMatch(/^p-[a-z2-7]{10}$/);
    }
  });

  it('use every bit of the randomness they are given', () => {
    expect(newPermissionId(() => Buffer.alloc(7, 0))).toBe('p-aaaaaaaaaa');
    expect(newPermissionId(() => Buffer.alloc(7, 0xff))).toBe('p-7777777777');
    expect(newPermissionId(() => Buffer.from([0, 0, 0, 0, 0, 0, 1]))).toBe('p-baaaaaaaaa');
  });

  it('do not repeat and spread over the alphabet (unguessable: 50 random bits)', () => {
    const ids = Array.from({ length: 5_000 }, () => newPermissionId());
    expect(new Set(ids).size).toBe(ids.length);
    const first = new Set(ids.map((id) => id[2]));
    expect(first.size).toBe(32);
  });

  it.each([
    ['p-abcdefghij', 'p-abcdefghij'],
    ['P-ABCDEFGHIJ', 'p-abcdefghij'],
    ['p-abcdefgh1j', undefined],
    ['p-abc', undefined],
    ['p-abcdefghijk', undefined],
    ['x-abcdefghij', undefined],
  ])('parsePermissionId(%s) → %s', (word, expected) => {
    expect(parsePermissionId(word)).toBe(expected);
  });
});

describe('mayDecide', () => {
  it.each([
    ['slack', ['U0DANA'], 'U0DANA', true],
    ['slack', ['U0DANA'], 'U0EVE', false],
    ['slack', ['U0DANA'], 'u0dana', false],
    ['slack', [], 'U0DANA', false],
    ['slack', ['U0DANA'], '', false],
    ['github', ['OctoCat'], 'octocat', true],
    ['github', ['octocat'], 'hubot', false],
    ['github', [], 'octocat', false],
  ] as const)('%s approvers %j, %s → %s', (surface, approvers, who, expected) => {
    expect(mayDecide(surface, approvers, who)).toBe(expected);
  });
});

describe('describeSuggestions', () => {
  it.each([
    [
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }],
        behavior: 'allow',
        destination: 'localSettings',
      },
      "allow Bash(npm test:*) from now on, in this project's local settings",
    ],
    [
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      'switch the permission mode to acceptEdits, in this session only',
    ],
    [
      { type: 'addDirectories', directories: ['/srv/x'], destination: 'session' },
      'allow work in the folders /srv/x, in this session only',
    ],
    [{ type: 'brandNew' }, 'a settings change of type brandNew'],
    [{}, 'a settings change of type unknown'],
  ])('%j → %s', (suggestion, words) => {
    expect(describeSuggestions([suggestion])).toEqual([words]);
  });
});
