import type { SchemaNode } from '../../../src/config/config-schema.js';

/**
 * Every key path a schema describes, mapped to its node: `standing.sessions[].cwd` for a key of
 * the objects in a list, `harnesses.<name>.kind` for a key of the values of a map. The keys of
 * `anyOf` branches count as keys of the value (`standing.sessions[].slack.channel`).
 */
export function schemaKeyPaths(root: SchemaNode): Map<string, SchemaNode> {
  const paths = new Map<string, SchemaNode>();
  const visitChildren = (node: SchemaNode, prefix: string): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      paths.set(path, child);
      visitChildren(child, path);
    }
    if (typeof node.additionalProperties === 'object') {
      const path = `${prefix}.<name>`;
      paths.set(path, node.additionalProperties);
      visitChildren(node.additionalProperties, path);
    }
    if (node.items !== undefined) visitChildren(node.items, `${prefix}[]`);
    for (const branch of node.anyOf ?? []) visitChildren(branch, prefix);
  };
  visitChildren(root, '');
  return paths;
}

/**
 * The same paths read off a value: lists contribute their elements' keys under `[]`, and the maps
 * named in `maps` contribute their values' keys under `<name>`.
 */
export function valueKeyPaths(value: unknown, maps: ReadonlySet<string>, prefix = ''): Set<string> {
  const paths = new Set<string>();
  if (Array.isArray(value)) {
    for (const element of value as unknown[]) {
      for (const path of valueKeyPaths(element, maps, `${prefix}[]`)) paths.add(path);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const path = `${prefix === '' ? '' : `${prefix}.`}${maps.has(prefix) ? '<name>' : key}`;
      paths.add(path);
      for (const inner of valueKeyPaths(child, maps, path)) paths.add(inner);
    }
  }
  return paths;
}
