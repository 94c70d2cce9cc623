import { readFileSync } from 'node:fs';

/** The parts of JSON Schema that schemas/config.schema.json uses. */
export interface SchemaNode {
  readonly description?: string;
  readonly type?: string;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: boolean | SchemaNode;
  readonly propertyNames?: SchemaNode;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly required?: readonly string[];
  readonly pattern?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
}

/**
 * The name grammar (docs/design.md §1) as the schema spells it. JSON Schema patterns are unanchored
 * searches, so both anchors are needed; under ECMAScript rules (ajv's) `$` without the `m` flag
 * matches only at the very end, so `"abc\n"` is refused (test/unit/config/name-pattern.test.ts).
 */
export const nameSchemaPattern = '^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$';

// src/config/ and dist/config/ are both two levels below the package root.
const schemaUrl = new URL('../../schemas/config.schema.json', import.meta.url);

let loaded: SchemaNode | undefined;

/** schemas/config.schema.json, read once: it ships with the package and never changes at run time. */
export function configSchema(): SchemaNode {
  loaded ??= JSON.parse(readFileSync(schemaUrl, 'utf8')) as SchemaNode;
  return loaded;
}
