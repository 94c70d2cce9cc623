import { describe, expect, it } from 'vitest';
import { formatConfigCheck } from '../../../src/config/format-config.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import { controlCharacters } from './control-characters.js';

const configPath = '/etc/the-loop/config.yaml';

describe('formatConfigCheck', () => {
  it('summarises an all-defaults config, one block a line', () => {
    const text = formatConfigCheck(resolveConfig({}, configPath));
    const lines = text.split('\n');
    expect(lines[0]).toBe('config      /etc/the-loop/config.yaml');
    expect(lines).toContain('instance    (unnamed), scope open, no declared work items');
    expect(lines).toContain('state root  /etc/the-loop/state');
    expect(lines).toContain('tmux        the default tmux server');
    expect(lines).toContain('  claude    claude, agent, interrupt Escape: claude');
    expect(lines).toContain('  shell     command, plain, interrupt C-c: bash --norc');
    expect(lines).toContain('            no declared sessions');
    expect(lines).toContain('api         control socket only (TCP off)');
    expect(lines.every((line) => line === line.trimEnd())).toBe(true);
  });

  it('shows the sessions, a named socket and the instance scope', () => {
    const config = resolveConfig(
      {
        instance: { name: 'laptop-b', scope: { mode: 'addressed', workItems: ['github:o/r#1'] } },
        tmux: { socket: 'loop' },
        standing: {
          sessions: [
            { name: 'sup', harness: 'shell', args: ['-x', 'a b'], prompt: 'hello', slack: false },
            { name: 'notes', promptFile: 'notes.md', autoStart: false, slack: { channel: 'C1' } },
          ],
        },
        api: { listen: '127.0.0.1:8790' },
      },
      configPath,
    );
    const text = formatConfigCheck(config);
    expect(text).toContain('instance    laptop-b, scope addressed, declared: github:o/r#1');
    expect(text).toContain('tmux        tmux -L loop');
    expect(text).toContain(
      '  sup       shell -x "a b" in /etc/the-loop, auto-start, no Slack thread',
    );
    expect(text).toContain('prompt: 5 characters');
    expect(text).toContain('  notes     claude in /etc/the-loop, manual start, Slack thread in C1');
    expect(text).toContain('prompt file: /etc/the-loop/notes.md');
    expect(text).toContain('api         also TCP 127.0.0.1:8790');
  });

  it('says why a bad instance block locked the instance', () => {
    const text = formatConfigCheck(resolveConfig({ instance: { name: 'Bad' } }, configPath));
    expect(text).toContain('scope locked');
    expect(text).toMatch(/- instance\.name: /);
  });

  it('escapes control and bidi characters a description may hold', () => {
    const config = resolveConfig(
      { standing: { sessions: [{ name: 'a', description: 'x\u001b[2J\u202ey\nz' }] } },
      configPath,
    );
    const text = formatConfigCheck(config);
    expect(controlCharacters(text)).toEqual([]);
    expect(text).toContain('x\\u001b[2J\\u202ey\\u000az');
  });
});
