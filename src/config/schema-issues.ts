import type { ErrorObject } from 'ajv';
import { closestKey } from './closest-key.js';
import type { ConfigIssue } from './config-error.js';
import { nameSchemaPattern, type SchemaNode } from './config-schema.js';
import { keyPath } from './key-path.js';
import { quote } from './quote.js';
import { isRecord } from '../guards.js';

type Segment = string | number;

/**
 * Turns ajv's errors (compiled with `allErrors` and `verbose`) into one issue per problem, each
 * with a key path a person can find in the file and a message that says what to write instead.
 */
export function schemaIssues(errors: readonly ErrorObject[], data: unknown): ConfigIssue[] {
  const anyOfPrefixes = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const issues = errors
    // propertyNames reports the inner pattern again; anyOf branches are judged by their anyOf.
    .filter((e) => !e.schemaPath.includes('/propertyNames/'))
    .filter((e) => !anyOfPrefixes.some((prefix) => e.schemaPath.startsWith(prefix)))
    .flatMap((e) => issuesFor(e, errors, data));
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function issuesFor(error: ErrorObject, all: readonly ErrorObject[], data: unknown): ConfigIssue[] {
  const { segments, value } = locate(error.instancePath, data);
  const at = (extra: Segment[] = []): string => keyPath([...segments, ...extra]);
  const parent = error.parentSchema as SchemaNode | undefined;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const known = Object.keys(parent?.properties ?? {});
      const guess = closestKey(key, known);
      const hint = guess === undefined ? '' : ` (did you mean \`${guess}\`?)`;
      const list = known.length > 0 ? ` Known keys here: ${known.join(', ')}.` : '';
      const message = `unknown key ${quote(key)}: remove it or correct its spelling${hint}.${list}`;
      return [{ path: at([key]), code: 'unknown_key', message }];
    }
    case 'required': {
      const key = String(params['missingProperty']);
      return [{ path: at([key]), code: 'missing_key', message: `the key \`${key}\` is required` }];
    }
    case 'propertyNames': {
      const key = String(params['propertyName']);
      return [{ path: at([key]), code: 'invalid_name', message: nameMessage(key) }];
    }
    case 'type':
      return [{ path: at(), code: 'wrong_type', message: typeMessage(segments, params, value) }];
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map((v) => String(v)).join(', ');
      const message = `${quote(value)} is not allowed: use one of ${allowed}`;
      return [{ path: at(), code: 'invalid_value', message }];
    }
    case 'pattern':
      return params['pattern'] === nameSchemaPattern
        ? [{ path: at(), code: 'invalid_name', message: nameMessage(value) }]
        : [{ path: at(), code: 'invalid_value', message: formMessage(value, parent) }];
    case 'minLength':
      return [{ path: at(), code: 'invalid_value', message: 'must not be empty' }];
    case 'anyOf':
      return anyOfIssues(error, all, data, value, at());
    default: {
      const message = `${quote(value)} is out of range: ${error.message ?? 'invalid'}`;
      return [{ path: at(), code: 'invalid_value', message }];
    }
  }
}

/** A mapping that went wrong inside is reported from inside; anything else as a wrong type. */
function anyOfIssues(
  error: ErrorObject,
  all: readonly ErrorObject[],
  data: unknown,
  value: unknown,
  path: string,
): ConfigIssue[] {
  const prefix = `${error.schemaPath}/`;
  const inner = all.filter(
    (e) =>
      e.schemaPath.startsWith(prefix) &&
      !(e.instancePath === error.instancePath && (e.keyword === 'type' || e.keyword === 'const')),
  );
  if (isRecord(value) && inner.length > 0) return inner.flatMap((e) => issuesFor(e, all, data));
  const branches = (error.parentSchema as SchemaNode | undefined)?.anyOf ?? [];
  const alternatives = branches.map(describeBranch).join(' or ');
  const message = `must be ${alternatives}, not ${describeValue(value)}`;
  return [{ path, code: 'wrong_type', message }];
}

function describeBranch(branch: SchemaNode): string {
  if ('const' in branch) return `\`${JSON.stringify(branch.const)}\``;
  if (branch.type === 'object') {
    const keys = Object.keys(branch.properties ?? {}).map((key) => `\`${key}\``);
    return `a mapping with ${keys.join(', ')}`;
  }
  return typeWords[branch.type ?? ''] ?? 'another value';
}

const typeWords: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
};

function typeMessage(segments: Segment[], params: Record<string, unknown>, value: unknown): string {
  const expected = typeWords[String(params['type'])] ?? String(params['type']);
  if (segments.length === 0) {
    return `the config must be a YAML mapping of keys (or an empty file), not ${describeValue(value)}`;
  }
  return `must be ${expected}, not ${describeValue(value)}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) return 'a mapping';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number') return `the number ${quote(value)}`;
  return quote(value);
}

function nameMessage(value: unknown): string {
  return (
    `${quote(value)} is not a valid name: use 1–40 characters of a–z, 0–9 and '-', ` +
    `starting and ending with a letter or digit`
  );
}

function formMessage(value: unknown, schema: SchemaNode | undefined): string {
  const expected = schema?.description ?? 'see docs/configuration.md';
  return `${quote(value)} is not in the expected form. ${expected}`;
}

/** Walks a JSON pointer through the data, so array indexes become `[n]` and map keys stay keys. */
function locate(pointer: string, data: unknown): { segments: Segment[]; value: unknown } {
  const segments: Segment[] = [];
  let value = data;
  if (pointer === '') return { segments, value };
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      segments.push(Number(key));
      value = value[Number(key)];
    } else {
      segments.push(key);
      value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    }
  }
  return { segments, value };
}
