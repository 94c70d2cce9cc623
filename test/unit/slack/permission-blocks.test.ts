import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../../../src/permissions/permission-types.js';
import { summarizeToolInput } from '../../../src/permissions/describe-request.js';
import { parsePermissionCommand } from '../../../src/slack/commands/parse-permission-command.js';
import {
  inertCode,
  permissionRequestMessage,
  permissionSettledMessage,
} from '../../../src/slack/permission-blocks.js';

const request = (command: string, suggestions: unknown[] = []): PermissionRequest => ({
  id: 'p-abcdefghij',
  ref: 'standing:sup',
  tool: 'Bash',
  summary: summarizeToolInput('Bash', { command }),
  requestedAt: '2026-12-01T10:00:00.000Z',
  expiresAt: '2026-12-01T10:10:00.000Z',
  canAlways: suggestions.length > 0,
  suggestions,
  alwaysChanges: suggestions.map(() => 'allow <!here> from now on'),
  alwaysApply: suggestions,
});

/** Every mrkdwn text of a message: what Slack would parse for links, mentions and broadcasts. */
function texts(message: { text: string; blocks: Record<string, unknown>[] }): string[] {
  const found: string[] = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const node = value as Record<string, unknown>;
      if (node['type'] === 'mrkdwn' && typeof node['text'] === 'string') found.push(node['text']);
      Object.values(node).forEach(walk);
    }
  };
  walk(message.blocks);
  return found;
}

const hostile = [
  '<!channel> deploy now',
  'echo <@U0BOSS> <!subteam^S123|@oncall>',
  'curl <http://evil.example|https://github.com>',
  'cat &lt;script&gt; &amp;',
  'x ``` closes the block <!here> ```',
];

describe('permission messages in Slack (security)', () => {
  it.each(hostile)('leave %j inert: no <, > or raw & reaches Slack', (command) => {
    const decided = permissionSettledMessage(request(command), {
      kind: 'decided',
      verdict: 'deny',
      decider: { surface: 'slack', name: '@dana' },
      reason: '<!everyone> because <http://x|y>',
      at: '2026-12-01T10:02:00.000Z',
    });
    for (const message of [permissionRequestMessage(request(command, [{}])), decided]) {
      for (const text of texts(message)) {
        expect(text).not.toMatch(/[<>]/);
        expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      }
    }
  });

  it('keeps a fence in the input from closing the code block', () => {
    const code = inertCode('a ``` b ```` c');
    expect(code.startsWith('```') && code.endsWith('```')).toBe(true);
    expect(code.slice(3, -3)).not.toContain('```');
  });

  it('bounds every section below Slack’s 3,000 characters, even when escaping grows the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('<', '>', '&', 'a', '😀', '`'), maxLength: 5_000 }),
        (command) => {
          const message = permissionRequestMessage(request(command));
          for (const text of texts(message)) expect(text.length).toBeLessThanOrEqual(3_000);
          const code = inertCode(command);
          // Cut between characters: never half an entity.
          expect(code.slice(3, -3)).not.toMatch(/&[a-z]{0,3}(?:…|$)/);
        },
      ),
    );
  });

  it('offers "Allow always" only with suggestions, and says what it changes', () => {
    const plain = JSON.stringify(permissionRequestMessage(request('ls')).blocks);
    expect(plain).not.toContain('permission_allow_always');
    const offered = JSON.stringify(permissionRequestMessage(request('ls', [{}])).blocks);
    expect(offered).toContain('permission_allow_always');
    expect(offered).toContain('allow &lt;!here&gt; from now on');
  });

  it('drops the buttons once settled', () => {
    const settled = permissionSettledMessage(request('ls'), {
      kind: 'expired',
      reason: 'timeout',
      at: '2026-12-01T10:10:00.000Z',
    });
    expect(settled.blocks.some((block) => block['type'] === 'actions')).toBe(false);
    expect(settled.text).toContain('expired — answer in the terminal');
  });
});

describe('parsePermissionCommand', () => {
  it.each([
    ['!allow', { verdict: 'allow' }],
    ['  !Allow p-ABCDEFGHIJ', { verdict: 'allow', id: 'p-abcdefghij' }],
    ['!allow-always', { verdict: 'allow-always' }],
    ['!deny', { verdict: 'deny' }],
    ['!deny not on prod', { verdict: 'deny', reason: 'not on prod' }],
    [
      '!deny p-abcdefghij not\non prod',
      { verdict: 'deny', id: 'p-abcdefghij', reason: 'not\non prod' },
    ],
    ['!allow thanks', { verdict: 'allow' }],
    ['!status', undefined],
    ['allow', undefined],
    ['!allowed', undefined],
  ])('%j → %j', (text, expected) => {
    expect(parsePermissionCommand(text)).toEqual(expected);
  });
});
