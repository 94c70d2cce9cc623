import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcRoot = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The first folder below src/ a file sits in; a top-level file is its own node (`app.ts`). */
function folderOf(file: string): string {
  return path.relative(srcRoot, file).split(path.sep)[0] ?? '';
}

/** Edges between src/ folders, read from static and dynamic relative imports. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const importPattern = /(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const file of sourceFiles(srcRoot)) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const target = path.resolve(path.dirname(file), match[1] ?? '');
      if (!target.startsWith(srcRoot)) continue;
      const to = folderOf(target.replace(/\.js$/, '.ts'));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle as its folders in order, found by a depth-first walk from each folder. */
function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const walk = (start: string, node: string, trail: string[]): void => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const key = [...trail].sort().join(' ');
        if (!cycles.has(key)) cycles.set(key, [...trail, start]);
      } else if (!trail.includes(next) && next > start) {
        walk(start, next, [...trail, next]);
      }
    }
  };
  for (const start of graph.keys()) walk(start, start, [start]);
  return [...cycles.values()];
}

describe('the src/ folders', () => {
  it('import each other without a cycle', () => {
    const cycles = findCycles(folderGraph()).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('finds a cycle where there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
