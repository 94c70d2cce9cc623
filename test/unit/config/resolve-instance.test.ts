import { describe, expect, it } from 'vitest';
import { resolveInstance } from '../../../src/config/resolve-instance.js';
import type { InstanceConfig } from '../../../src/config/types.js';

const ref = 'github:octo/repo#12';
const url = 'https://github.com/octo/repo/pull/40';

interface Row {
  readonly name: string;
  readonly raw: unknown;
  readonly instance: InstanceConfig;
  /** The key each warning names, in order; empty when the block is valid. */
  readonly warnings: readonly string[];
}

const open = (name = '', workItems: string[] = []): InstanceConfig => ({
  name,
  scope: { mode: 'open', workItems },
});
const locked = (name = '', workItems: string[] = []): InstanceConfig => ({
  name,
  scope: { mode: 'locked', workItems },
});

// docs/design.md §7.4 "Config resolution never widens": missing is open and unnamed; anything wrong in a
// present block locks it, keeping only what is valid.
const rows: Row[] = [
  { name: 'missing block', raw: undefined, instance: open(), warnings: [] },
  { name: 'empty block', raw: {}, instance: open(), warnings: [] },
  { name: 'name only', raw: { name: 'laptop-b' }, instance: open('laptop-b'), warnings: [] },
  { name: 'explicitly unnamed', raw: { name: '' }, instance: open(), warnings: [] },
  { name: 'empty scope', raw: { name: 'a', scope: {} }, instance: open('a'), warnings: [] },
  {
    name: 'addressed with a name',
    raw: { name: 'laptop-b', scope: { mode: 'addressed' } },
    instance: { name: 'laptop-b', scope: { mode: 'addressed', workItems: [] } },
    warnings: [],
  },
  {
    name: 'locked on purpose',
    raw: { scope: { mode: 'locked', workItems: [ref] } },
    instance: locked('', [ref]),
    warnings: [],
  },
  {
    name: 'refs and URLs kept as written',
    raw: { scope: { workItems: [ref, url, 'github:ghe.example.com/octo/repo#3'] } },
    instance: open('', [ref, url, 'github:ghe.example.com/octo/repo#3']),
    warnings: [],
  },
  {
    name: 'block is null (`instance:` alone)',
    raw: null,
    instance: locked(),
    warnings: ['instance'],
  },
  { name: 'block is a string', raw: 'laptop-b', instance: locked(), warnings: ['instance'] },
  { name: 'block is a list', raw: ['laptop-b'], instance: locked(), warnings: ['instance'] },
  {
    name: 'uppercase name',
    raw: { name: 'LAPTOP' },
    instance: locked(),
    warnings: ['instance.name'],
  },
  {
    name: 'name with a newline',
    raw: { name: 'abc\n' },
    instance: locked(),
    warnings: ['instance.name'],
  },
  {
    name: 'name too long',
    raw: { name: 'a'.repeat(41) },
    instance: locked(),
    warnings: ['instance.name'],
  },
  { name: 'name is a number', raw: { name: 7 }, instance: locked(), warnings: ['instance.name'] },
  {
    name: 'unknown mode keeps the valid name',
    raw: { name: 'laptop-b', scope: { mode: 'closed' } },
    instance: locked('laptop-b'),
    warnings: ['instance.scope.mode'],
  },
  {
    name: 'mode with the wrong case',
    raw: { name: 'a', scope: { mode: 'Open' } },
    instance: locked('a'),
    warnings: ['instance.scope.mode'],
  },
  {
    name: 'mode is not a string',
    raw: { scope: { mode: true } },
    instance: locked(),
    warnings: ['instance.scope.mode'],
  },
  {
    name: 'addressed without a name',
    raw: { scope: { mode: 'addressed' } },
    instance: locked(),
    warnings: ['instance.scope.mode'],
  },
  {
    name: 'addressed with an empty name',
    raw: { name: '', scope: { mode: 'addressed' } },
    instance: locked(),
    warnings: ['instance.scope.mode'],
  },
  {
    name: 'addressed with an invalid name: one warning, for the name',
    raw: { name: 'Bad', scope: { mode: 'addressed' } },
    instance: locked(),
    warnings: ['instance.name'],
  },
  {
    name: 'scope is a string',
    raw: { name: 'a', scope: 'open' },
    instance: locked('a'),
    warnings: ['instance.scope'],
  },
  {
    name: 'workItems is a string',
    raw: { scope: { workItems: ref } },
    instance: locked(),
    warnings: ['instance.scope.workItems'],
  },
  {
    name: 'bad entries are dropped, good ones kept',
    raw: { scope: { mode: 'open', workItems: [ref, 'octo/repo#1', 12, url, 'standing:sup'] } },
    instance: locked('', [ref, url]),
    warnings: [
      'instance.scope.workItems[1]',
      'instance.scope.workItems[2]',
      'instance.scope.workItems[4]',
    ],
  },
  {
    name: 'unknown key in the block',
    raw: { name: 'a', nmae: 'b' },
    instance: locked('a'),
    warnings: ['instance.nmae'],
  },
  {
    name: 'unknown key in scope',
    raw: { scope: { mode: 'open', items: [] } },
    instance: locked(),
    warnings: ['instance.scope.items'],
  },
  {
    name: 'hostile key is shown quoted',
    raw: { 'x\u001b[2J': 1 },
    instance: locked(),
    warnings: ['instance["x\\u001b[2J"]'],
  },
  {
    name: 'one warning per problem',
    raw: { name: 'X', scope: { mode: 'wide', workItems: ['nope'] }, extra: 1 },
    instance: locked(),
    warnings: [
      'instance.extra',
      'instance.name',
      'instance.scope.mode',
      'instance.scope.workItems[0]',
    ],
  },
];

describe('resolveInstance', () => {
  it.each(rows)('$name', ({ raw, instance, warnings }) => {
    const resolved = resolveInstance(raw);
    expect(resolved.instance).toEqual(instance);
    expect(resolved.warnings.map((warning) => warning.path)).toEqual(warnings);
  });

  it('never widens: a block with any warning resolves to locked', () => {
    for (const row of rows) {
      const resolved = resolveInstance(row.raw);
      if (resolved.warnings.length > 0) expect(resolved.instance.scope.mode).toBe('locked');
    }
  });

  it('says in every warning how to get out of the lock', () => {
    const { warnings } = resolveInstance({ scope: { mode: 'closed' } });
    expect(warnings[0]?.message).toMatch(/open, addressed or locked/);
    expect(warnings[0]?.message).toMatch(/locked until it is fixed/);
  });

  it('escapes control characters from the file in its messages', () => {
    const { warnings } = resolveInstance({ name: 'a\u001b[31m' });
    expect(warnings[0]?.message).not.toContain('\u001b');
  });
});
