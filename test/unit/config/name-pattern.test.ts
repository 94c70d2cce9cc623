import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configSchema, nameSchemaPattern } from '../../../src/config/config-schema.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import { isValidName } from '../../../src/refs.js';
import { schemaKeyPaths } from './schema-key-paths.js';

const validate = new Ajv().compile({ type: 'string', pattern: nameSchemaPattern });

// Strings near the grammar's edges: its own alphabet plus the characters that break naive
// anchoring (newlines before and after) and case.
const nearNames = fc.string({
  unit: fc.constantFrom('a', 'z', '0', '9', '-', 'A', '\n', '\r', ' ', '_'),
  maxLength: 45,
});

describe('the schema name pattern', () => {
  it.each(['abc\n', '\nabc', 'abc\r', 'abc\n\n', 'ab\nc', 'a\u2028'])(
    'refuses %j, though a search for the grammar would find a match inside it',
    (value) => {
      expect(validate(value)).toBe(false);
      expect(() =>
        resolveConfig({ standing: { sessions: [{ name: value }] } }, '/c.yaml'),
      ).toThrow();
    },
  );

  it.each(['a', 'a1', 'sup-2', 'a'.repeat(40)])('accepts %j', (value) => {
    expect(validate(value)).toBe(true);
  });

  it('accepts exactly what isValidName (src/refs.ts) accepts', () => {
    fc.assert(
      fc.property(fc.oneof(nearNames, fc.string({ maxLength: 45 })), (value) => {
        expect(validate(value)).toBe(isValidName(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('is the pattern of every key that holds a name', () => {
    const paths = schemaKeyPaths(configSchema());
    const nameKeys = [
      'defaults.harness',
      'standing.sessions[].name',
      'standing.sessions[].harness',
    ];
    for (const key of nameKeys) expect(paths.get(key)?.pattern).toBe(nameSchemaPattern);
    const harnesses = configSchema().properties?.['harnesses'];
    expect(harnesses?.propertyNames?.pattern).toBe(nameSchemaPattern);
  });
});
