import { Ajv, type ValidateFunction } from 'ajv';
import type { ConfigIssue } from './config-error.js';
import { configSchema } from './config-schema.js';
import type { RawConfig } from './raw-config.js';
import { schemaIssues } from './schema-issues.js';

let compiled: ValidateFunction<RawConfig> | undefined;

function validator(): ValidateFunction<RawConfig> {
  compiled ??= new Ajv({
    allErrors: true,
    verbose: true,
    useDefaults: true,
    // The instance block carries documentation (`properties`, `default`) but no `type`, on
    // purpose: it must never refuse the config (docs/design.md §7.4). Every other object in the schema
    // is typed and closed, which test/unit/config/schema-shape.test.ts checks instead.
    strictTypes: false,
  }).compile<RawConfig>(configSchema());
  return compiled;
}

export type RawConfigResult =
  | { readonly ok: true; readonly value: RawConfig }
  | { readonly ok: false; readonly issues: ConfigIssue[] };

/**
 * Checks the parsed file against schemas/config.schema.json and fills in the schema's defaults. The
 * input is left untouched: ajv writes the defaults into a copy.
 */
export function validateRawConfig(raw: unknown): RawConfigResult {
  let data: unknown;
  try {
    data = raw === null || raw === undefined ? {} : structuredClone(raw);
  } catch (error) {
    // Only a caller passing live objects gets here; a parsed file is always plain data.
    const reason = error instanceof Error ? error.message : String(error);
    const message = `the config must be plain data (mappings, lists, strings, numbers): ${reason}`;
    return { ok: false, issues: [{ path: '', code: 'wrong_type', message }] };
  }
  const validate = validator();
  if (validate(data)) return { ok: true, value: data };
  return { ok: false, issues: schemaIssues(validate.errors ?? [], data) };
}
