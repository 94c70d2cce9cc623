import { describe, expect, it } from 'vitest';
import { oldBindings } from '../../../bench/seed-bindings.js';
import { bindingRecordKey } from '../../../src/slack/thread-bindings.js';
import { isValidRecordKey } from '../../../src/state/record-key.js';

describe('oldBindings', () => {
  it('makes distinct threads and refs whose record keys the store accepts', () => {
    const bindings = oldBindings(1_500, 'C0SCALE');
    const keys = bindings.map((binding) => bindingRecordKey(binding.channel, binding.threadTs));
    expect(new Set(keys).size).toBe(1_500);
    expect(new Set(bindings.map((binding) => binding.ref)).size).toBe(1_500);
    expect(keys.every(isValidRecordKey)).toBe(true);
  });
});
