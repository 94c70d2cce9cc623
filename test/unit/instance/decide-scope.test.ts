import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstanceConfig, ScopeMode } from '../../../src/config/types.js';
import { decideScope, type ScopeDecision } from '../../../src/instance/decide-scope.js';
import type { AddressResult } from '../../../src/instance/parse-address.js';

const instance = (name: string, mode: ScopeMode): InstanceConfig => ({
  name,
  scope: { mode, workItems: [] },
});

const addresses = {
  none: { kind: 'none' },
  malformed: { kind: 'malformed', token: 'instance:LAPTOP' },
  ambiguous: { kind: 'ambiguous', names: ['alpha', 'beta'] },
  this: { kind: 'addressed', name: 'alpha' },
  other: { kind: 'addressed', name: 'beta' },
} satisfies Record<string, AddressResult>;
type AddressName = keyof typeof addresses;

const inScope: ScopeDecision = { outcome: 'in-scope', acts: true };
const claimable: ScopeDecision = { outcome: 'claimable', acts: true };
const malformed: ScopeDecision = { outcome: 'malformed-address', acts: false };
const ambiguous: ScopeDecision = { outcome: 'ambiguous-address', acts: false };
const elsewhere: ScopeDecision = { outcome: 'addressed-elsewhere', acts: false };
const locked: ScopeDecision = { outcome: 'instance-locked', acts: false };
const unaddressed: ScopeDecision = { outcome: 'unaddressed', acts: false };

describe('decideScope for the instance named alpha', () => {
  // Every mode × address × managed, worked out by hand from docs/design.md §7.4's table.
  it.each<[ScopeMode, AddressName, boolean, ScopeDecision]>([
    ['open', 'none', false, claimable],
    ['open', 'none', true, inScope],
    ['open', 'malformed', false, malformed],
    ['open', 'malformed', true, malformed],
    ['open', 'ambiguous', false, ambiguous],
    ['open', 'ambiguous', true, ambiguous],
    ['open', 'this', false, claimable],
    ['open', 'this', true, inScope],
    ['open', 'other', false, elsewhere],
    ['open', 'other', true, elsewhere],
    ['addressed', 'none', false, unaddressed],
    ['addressed', 'none', true, inScope],
    ['addressed', 'malformed', false, malformed],
    ['addressed', 'malformed', true, malformed],
    ['addressed', 'ambiguous', false, ambiguous],
    ['addressed', 'ambiguous', true, ambiguous],
    ['addressed', 'this', false, claimable],
    ['addressed', 'this', true, inScope],
    ['addressed', 'other', false, elsewhere],
    ['addressed', 'other', true, elsewhere],
    ['locked', 'none', false, locked],
    ['locked', 'none', true, inScope],
    ['locked', 'malformed', false, malformed],
    ['locked', 'malformed', true, malformed],
    ['locked', 'ambiguous', false, ambiguous],
    ['locked', 'ambiguous', true, ambiguous],
    ['locked', 'this', false, locked],
    ['locked', 'this', true, inScope],
    ['locked', 'other', false, elsewhere],
    ['locked', 'other', true, elsewhere],
  ])('%s, address %s, managed %s', (mode, address, managed, expected) => {
    expect(decideScope(instance('alpha', mode), addresses[address], managed)).toEqual(expected);
  });
});

describe('decideScope for an unnamed instance', () => {
  it.each<[ScopeMode, AddressResult, boolean, ScopeDecision]>([
    ['open', addresses.none, false, claimable],
    ['open', addresses.none, true, inScope],
    ['open', addresses.this, false, elsewhere],
    ['open', addresses.this, true, elsewhere],
    ['locked', addresses.none, false, locked],
    ['locked', addresses.none, true, inScope],
    ['locked', addresses.other, true, elsewhere],
    // resolveInstance never yields this, but the table still refuses it.
    ['addressed', addresses.none, false, unaddressed],
    ['addressed', { kind: 'addressed', name: '' }, false, elsewhere],
  ])('%s, %j, managed %s', (mode, address, managed, expected) => {
    expect(decideScope(instance('', mode), address, managed)).toEqual(expected);
  });
});

describe('decideScope properties', () => {
  const name = fc.constantFrom('', 'alpha', 'beta');
  const mode = fc.constantFrom<ScopeMode>('open', 'addressed', 'locked');
  const address = fc.constantFrom<AddressResult>(...Object.values(addresses));

  it('acts exactly on in-scope and claimable', () => {
    fc.assert(
      fc.property(name, mode, address, fc.boolean(), (n, m, a, managed) => {
        const decision = decideScope(instance(n, m), a, managed);
        expect(decision.acts).toBe(['in-scope', 'claimable'].includes(decision.outcome));
      }),
    );
  });

  it('never acts on an address that names someone else, whatever is managed', () => {
    fc.assert(
      fc.property(name, mode, fc.boolean(), (n, m, managed) => {
        const decision = decideScope(instance(n, m), { kind: 'addressed', name: 'gamma' }, managed);
        expect(decision).toEqual(elsewhere);
      }),
    );
  });

  it('takes a managed, unaddressed work item in every mode', () => {
    fc.assert(
      fc.property(name, mode, (n, m) => {
        expect(decideScope(instance(n, m), addresses.none, true)).toEqual(inScope);
      }),
    );
  });
});
