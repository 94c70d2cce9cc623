import { describe, expect, it } from 'vitest';
import type { InstanceConfig } from '../../../src/config/types.js';
import type { KeywordResult } from '../../../src/github/comment/parse-keyword-command.js';
import type { AddressResult } from '../../../src/instance/parse-address.js';
import { scopeRefusalFields } from '../../../src/instance/scope-refusal.js';

const instance: InstanceConfig = { name: 'alpha', scope: { mode: 'addressed', workItems: [] } };
const base = {
  reason: 'unaddressed' as const,
  instance,
  address: { kind: 'none' } as AddressResult,
  command: { kind: 'command', command: 'start' } as KeywordResult,
  actor: 'octocat',
  workItem: { host: 'github.com', owner: 'Octo', repo: 'repo', number: 12 },
  deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
};

describe('scopeRefusalFields', () => {
  it('builds the scope.refused fields from parsed values', () => {
    expect(scopeRefusalFields(base)).toEqual({
      reason: 'unaddressed',
      instance: 'alpha',
      mode: 'addressed',
      address: 'none',
      command: 'start',
      actor: 'octocat',
      workItem: 'github:Octo/repo#12',
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    });
  });

  it.each<[AddressResult, string]>([
    [{ kind: 'none' }, 'none'],
    [{ kind: 'addressed', name: 'beta' }, 'beta'],
    [{ kind: 'malformed', token: 'instance:LAPTOP' }, 'malformed'],
    [{ kind: 'ambiguous', names: ['a', 'b'] }, 'ambiguous'],
    [{ kind: 'addressed', name: 'not a name\n' }, 'malformed'],
  ])('writes the address %j as %j', (address, field) => {
    expect(scopeRefusalFields({ ...base, address }).address).toBe(field);
  });

  it.each<[KeywordResult, string]>([
    [{ kind: 'none' }, 'none'],
    [{ kind: 'ambiguous' }, 'ambiguous'],
    [{ kind: 'command', command: 'stop' }, 'stop'],
  ])('writes the command %j as %j', (command, field) => {
    expect(scopeRefusalFields({ ...base, command }).command).toBe(field);
  });

  it('never carries comment text, and cuts payload ids to printable ASCII', () => {
    const fields = scopeRefusalFields({
      ...base,
      reason: 'malformed-address',
      address: { kind: 'malformed', token: 'instance:SECRET-PLAN' },
      actor: 'octo\u001b[2Jcat',
      deliveryId: `id\n${'x'.repeat(100)}`,
    });
    expect(JSON.stringify(fields)).not.toContain('SECRET');
    expect(fields.actor).toBe('octo[2Jcat');
    expect(fields.deliveryId).toBe(`id${'x'.repeat(58)}`);
  });
});
