import { describe, expect, it } from 'vitest';
import { describeToolCall } from '../../../../src/slack/progress/describe-tool-call.js';
import {
  formatElapsed,
  formatProgressLine,
  formatProgressSummary,
} from '../../../../src/slack/progress/format-progress.js';
import { neutralizeSlackText } from '../../../../src/slack/progress/neutralize-slack-text.js';
import { planProgressEdit } from '../../../../src/slack/progress/plan-progress-edit.js';

describe('describeToolCall', () => {
  it.each([
    ['Bash', { command: 'npm test' }, 'Bash: npm test'],
    ['Read', { file_path: '/srv/app/src/app.ts' }, 'Read: /srv/app/src/app.ts'],
    ['Edit', { file_path: 'a.ts', old_string: 'secret', new_string: 'x' }, 'Edit: a.ts'],
    ['Grep', { pattern: 'TODO', path: 'src' }, 'Grep: TODO'],
    ['Glob', { pattern: '**/*.ts' }, 'Glob: **/*.ts'],
    ['WebFetch', { url: 'https://example.com/x' }, 'WebFetch: https:\u200b//example.com/x'],
    ['TodoWrite', { todos: [] }, 'TodoWrite'],
    ['Bash', 'not an object', 'Bash'],
    ['Bash', { command: 'line one\nrm -rf /' }, 'Bash: line one'],
    [
      'Bash',
      { command: 'echo <!channel> & <@U0DANA>' },
      'Bash: echo &lt;!channel&gt; &amp; &lt;@U0DANA&gt;',
    ],
    ['Bash', { command: 'say @here now' }, 'Bash: say @\u200bhere now'],
    ['Bash', { command: 'printf "\u001b[31mred\u0007"' }, 'Bash: printf " [31mred "'],
    ['', { command: 'ls' }, 'tool: ls'],
    ['<b>', {}, '&lt;b&gt;'],
  ])('%s %j → %s', (tool, input, expected) => {
    expect(describeToolCall(tool, input)).toBe(expected);
  });

  it('cuts a long argument to 60 characters by code points', () => {
    const described = describeToolCall('Bash', { command: '😀'.repeat(100) });
    expect(described).toBe(`Bash: ${'😀'.repeat(59)}…`);
  });
});

describe('neutralizeSlackText', () => {
  it.each([
    ['<!channel>', '&lt;!channel&gt;'],
    ['<https://evil.example|click>', '&lt;https:\u200b//evil.example|click&gt;'],
    ['@channel @Everyone @herein', '@\u200bchannel @\u200bEveryone @herein'],
    ['a\u2028b\tc', 'a b c'],
    ['&amp;', '&amp;amp;'],
  ])('%j → %j', (input, expected) => {
    expect(neutralizeSlackText(input)).toBe(expected);
  });
});

describe('formatting the status line and the summary', () => {
  it.each([
    [0, '0:00'],
    [999, '0:00'],
    [42_000, '0:42'],
    [725_000, '12:05'],
    [3_723_000, '1:02:03'],
    [-5, '0:00'],
  ])('formatElapsed(%i) = %s', (ms, expected) => {
    expect(formatElapsed(ms)).toBe(expected);
  });

  it('shows the tool, its argument and the time', () => {
    expect(formatProgressLine('Bash: npm test', 42_000)).toBe('⏳ working · Bash: npm test · 0:42');
  });

  it.each([
    [['Bash'], 7_000, '✅ done · 1 tool call (Bash) · 0:07'],
    [['Read', 'Bash', 'Bash'], 65_000, '✅ done · 3 tool calls (Bash ×2, Read) · 1:05'],
    [
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      1_000,
      '✅ done · 7 tool calls (a, b, c, d, e, f, …) · 0:01',
    ],
    [['<!here>'], 0, '✅ done · 1 tool call (&lt;!here&gt;) · 0:00'],
  ])('summarises %j over %i ms', (tools, ms, expected) => {
    expect(formatProgressSummary(tools, ms)).toBe(expected);
  });
});

describe('planProgressEdit: at most one edit per interval, the latest state wins', () => {
  it.each([
    ['never sent', { now: 10, lastSentAt: undefined, editDue: false }, { kind: 'send' }],
    ['sent long ago', { now: 10_000, lastSentAt: 1_000, editDue: false }, { kind: 'send' }],
    [
      'exactly one interval ago',
      { now: 4_000, lastSentAt: 1_000, editDue: false },
      { kind: 'send' },
    ],
    [
      'sent a second ago',
      { now: 2_000, lastSentAt: 1_000, editDue: false },
      { kind: 'wait', ms: 2_000 },
    ],
    ['an edit already due', { now: 2_000, lastSentAt: 1_000, editDue: true }, { kind: 'coalesce' }],
    [
      'due and never sent',
      { now: 2_000, lastSentAt: undefined, editDue: true },
      { kind: 'coalesce' },
    ],
  ])('%s', (_name, input, expected) => {
    expect(planProgressEdit({ ...input, intervalMs: 3_000 })).toEqual(expected);
  });
});
