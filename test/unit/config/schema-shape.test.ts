import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { configSchema, type SchemaNode } from '../../../src/config/config-schema.js';
import { schemaKeyPaths } from './schema-key-paths.js';

const paths = schemaKeyPaths(configSchema());
const outsideInstance = [...paths].filter(([path]) => !path.startsWith('instance'));

// Keys whose default depends on other keys (or that must be given): the schema cannot hold a
// single value for them, so their description says what happens when they are left out.
const noStaticDefault = new Set([
  'harnesses.<name>',
  'harnesses.<name>.kind',
  'harnesses.<name>.command',
  'harnesses.<name>.args',
  'harnesses.<name>.agent',
  'harnesses.<name>.interruptKey',
  'harnesses.<name>.readyPattern',
  'harnesses.<name>.mcp',
  'harnesses.<name>.permissionMode',
  'standing.sessions[].name',
  'standing.sessions[].harness',
  'standing.sessions[].cwd',
  'standing.sessions[].prompt',
  'standing.sessions[].promptFile',
  'standing.sessions[].slack.channel',
  'slack.approvers',
  // Left out, the instance runs alone (docs/design.md §21).
  'fleet',
  'fleet.nats',
  'fleet.defaultInstance',
  'github.approvers',
  'github.repos[].repo',
  'github.repos[].path',
]);

function objectNodes(node: SchemaNode, at: string): [string, SchemaNode][] {
  const children: [string, SchemaNode][] = [
    ...Object.entries(node.properties ?? {}).map(([k, v]): [string, SchemaNode] => [
      `${at}.${k}`,
      v,
    ]),
    ...(node.items ? [[`${at}[]`, node.items] as [string, SchemaNode]] : []),
    ...(node.anyOf ?? []).map((branch, i): [string, SchemaNode] => [`${at}|${i}`, branch]),
    ...(typeof node.additionalProperties === 'object'
      ? [[`${at}.<name>`, node.additionalProperties] as [string, SchemaNode]]
      : []),
  ];
  const self: [string, SchemaNode][] = node.properties ? [[at, node]] : [];
  return [...self, ...children.flatMap(([path, child]) => objectNodes(child, path))];
}

describe('schemas/config.schema.json', () => {
  it('compiles with ajv in strict mode (types excepted, for the instance block)', () => {
    expect(() =>
      new Ajv({ strict: true, strictTypes: false }).compile(configSchema()),
    ).not.toThrow();
  });

  it('closes every object outside the instance block', () => {
    const open = objectNodes(configSchema(), '')
      .filter(([path]) => !path.startsWith('.instance'))
      .filter(([, node]) => node.type !== 'object' || node.additionalProperties !== false);
    expect(open.map(([path]) => path)).toEqual([]);
  });

  it('types every key outside the instance block', () => {
    const untyped = outsideInstance.filter(([, node]) => node.type === undefined && !node.anyOf);
    expect(untyped.map(([path]) => path)).toEqual([]);
  });

  it('describes every key', () => {
    const undocumented = [...paths].filter(([, node]) => !node.description);
    expect(undocumented.map(([path]) => path)).toEqual([]);
  });

  it('gives a default to every key except those listed above', () => {
    const missing = [...paths].filter(([, node]) => !('default' in node)).map(([path]) => path);
    expect(missing.sort()).toEqual([...noStaticDefault].sort());
  });

  it('has defaults that its own rules accept', () => {
    const ajv = new Ajv({ strictTypes: false });
    for (const [path, node] of outsideInstance) {
      if (!('default' in node)) continue;
      const validate = ajv.compile(node);
      expect(
        validate(structuredClone(node.default)),
        `${path}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
    }
  });
});
