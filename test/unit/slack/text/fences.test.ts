import { describe, expect, it } from 'vitest';
import {
  closesFence,
  planFenceRepair,
  readFence,
  type Fence,
} from '../../../../src/slack/text/fences.js';
import { escapeMrkdwn } from '../../../../src/slack/text/escape-mrkdwn.js';

describe('readFence', () => {
  it.each([
    ['```', { char: '`', length: 3, info: '' }],
    ['```ts', { char: '`', length: 3, info: 'ts' }],
    ['   ````md title', { char: '`', length: 4, info: 'md title' }],
    ['~~~python', { char: '~', length: 3, info: 'python' }],
    ['~~~ a`b', { char: '~', length: 3, info: 'a`b' }],
  ])('%j opens a fence', (line, expected) => {
    expect(readFence(line)).toEqual({ line, ...expected });
  });

  it.each(['``', '    ```', '``` a`b', 'text ```', '~~', ''])('%j opens none', (line) => {
    expect(readFence(line)).toBeUndefined();
  });
});

describe('closesFence', () => {
  const backticks = readFence('````ts') as Fence;
  it.each([
    ['````', true],
    ['`````', true],
    ['  ````  ', true],
    ['```', false],
    ['~~~~', false],
    ['```` x', false],
    ['    ````', false],
  ])('%j closes ````ts: %s', (line, expected) => {
    expect(closesFence(line, backticks)).toBe(expected);
  });
});

describe('planFenceRepair', () => {
  it('closes with the fence character and length and reopens with the opening line', () => {
    expect(planFenceRepair(readFence('~~~~py') as Fence, 100)).toEqual({
      close: '\n~~~~',
      reopen: '~~~~py\n',
    });
  });

  it('gives up when the added lines would take more than half the limit', () => {
    expect(planFenceRepair(readFence('```ts') as Fence, 20)).toBeDefined();
    expect(planFenceRepair(readFence('```ts') as Fence, 19)).toBeUndefined();
  });
});

describe('escapeMrkdwn', () => {
  it('turns exactly & < > into entities', () => {
    expect(escapeMrkdwn('a & b < c > d " \' *x*')).toBe('a &amp; b &lt; c &gt; d " \' *x*');
    expect(escapeMrkdwn('&amp;')).toBe('&amp;amp;');
  });
});
