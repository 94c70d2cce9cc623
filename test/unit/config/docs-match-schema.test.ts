import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/config-schema.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import { schemaKeyPaths } from './schema-key-paths.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const docPath = path.join(here, '../../../docs/configuration.md');
const doc = readFileSync(docPath, 'utf8');
const schemaPaths = schemaKeyPaths(configSchema());
const topLevel = Object.keys(configSchema().properties ?? {});

interface Row {
  readonly key: string;
  readonly defaultCell: string;
}

/** The rows of every `| key | type | default | meaning |` table, by their first-column key. */
function keyRows(markdown: string): Row[] {
  const rows: Row[] = [];
  let inKeyTable = false;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      inKeyTable = false;
      continue;
    }
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    if (cells[1] === 'key' && cells[3] === 'default') inKeyTable = true;
    const key = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (inKeyTable && key !== undefined) rows.push({ key, defaultCell: cells[3] ?? '' });
  }
  return rows;
}

/** Every inline code span outside fenced blocks that reads as a config key path. */
function keyMentions(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
  const keyLike = new RegExp(`^(?:${topLevel.join('|')})(?:[.[][^\\s:]*)?$`);
  return spans
    .filter((span) => keyLike.test(span))
    .map((span) =>
      span.replace(/\[\d+\]/g, '[]').replace(/^harnesses\.(?!<name>)[^.]+/, 'harnesses.<name>'),
    );
}

describe('docs/configuration.md', () => {
  const rows = keyRows(doc);
  const documented = rows.map((row) => row.key);

  it('documents every key of the schema in a table', () => {
    expect([...schemaPaths.keys()].filter((key) => !documented.includes(key))).toEqual([]);
  });

  it('documents no key the schema lacks, and each key once', () => {
    expect(documented.filter((key) => !schemaPaths.has(key))).toEqual([]);
    expect(documented.filter((key, index) => documented.indexOf(key) !== index)).toEqual([]);
  });

  it('names no key the schema lacks anywhere in its prose', () => {
    const mentions = keyMentions(doc);
    expect(mentions.length).toBeGreaterThan(documented.length);
    expect(mentions.filter((key) => !schemaPaths.has(key))).toEqual([]);
  });

  it('shows the schema default of every key that has a plain one', () => {
    const wrong = rows.flatMap(({ key, defaultCell }) => {
      const node = schemaPaths.get(key);
      if (node === undefined || !('default' in node)) return [];
      const value = node.default;
      const plain =
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        Object.keys(value).length === 0;
      if (!plain) return [];
      const expected = `\`${JSON.stringify(value)}\``;
      return defaultCell.includes(expected)
        ? []
        : [`${key}: expected ${expected} in "${defaultCell}"`];
    });
    expect(wrong).toEqual([]);
  });

  it('has YAML examples that the loader accepts', () => {
    const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const config = resolveConfig(parse(example), '/home/dana/.the-loop/config.yaml', {
        home: '/home/dana',
      });
      expect(config.instanceWarnings).toEqual([]);
    }
  });
});
