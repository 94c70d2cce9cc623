import { describe, expect, it } from 'vitest';
import { lenientStateRoot } from '../../../src/config/lenient-state-root.js';

const configPath = '/srv/app/.the-loop/config.yaml';

describe('lenientStateRoot', () => {
  it.each([
    ['an empty file', '', '/srv/app/.the-loop/state'],
    ['a relative root', 'state:\n  root: ../var/loop\n', '/srv/app/var/loop'],
    ['an absolute root', 'state: { root: /var/loop }\n', '/var/loop'],
    ['a root under HOME', 'state: { root: ~/loop }\n', '/home/ana/loop'],
    [
      'a file the schema refuses',
      'state: { root: /var/loop }\nstanding: { autoStart: yes-please, sessionz: [] }\n',
      '/var/loop',
    ],
    [
      'a YAML syntax error after the root',
      'state:\n  root: /var/loop\nslack:\n  channel: [unclosed\n',
      '/var/loop',
    ],
    ['a root that is not a string', 'state: { root: 12 }\n', '/srv/app/.the-loop/state'],
    ['text that is not a mapping', '- a\n- b\n', '/srv/app/.the-loop/state'],
    ['a tab-indented mess', '\tstate:\n\t\troot: x\n', '/srv/app/.the-loop/state'],
  ])('%s', (_name, text, expected) => {
    expect(lenientStateRoot(text, configPath, '/home/ana')).toBe(expected);
  });
});
