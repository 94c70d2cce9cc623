// Measures the shape of a source tree for docs/architecture.md's before/after table (issue 22):
// files, lines, median file length, small files with a single importer, the largest file, and
// cycles between top-level folders. Usage: node --import tsx scripts/house-metrics.ts [SRC_DIR]
// (default `src`). To measure an older commit: `git archive REV src | tar -x -C /tmp/rev` and
// pass `/tmp/rev/src`. Duplicate pairs come from the `duplicates --repo src` tool, run apart.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const srcRoot = path.resolve(process.argv[2] ?? 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const importPattern = /(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Each file's relative imports, resolved to .ts paths under the root. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(importPattern)].map((match) =>
    path.resolve(path.dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts')),
  );
}

const files = sourceFiles(srcRoot);
const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
const lineCount = (file: string): number => (texts.get(file) ?? '').split('\n').length - 1;
const importers = new Map<string, Set<string>>();
const folderEdges = new Map<string, Set<string>>();
const folderOf = (file: string): string => path.relative(srcRoot, file).split(path.sep)[0] ?? '';
for (const file of files) {
  for (const target of importsOf(file, texts.get(file) ?? '')) {
    if (!texts.has(target)) continue;
    const set = importers.get(target) ?? new Set<string>();
    set.add(file);
    importers.set(target, set);
    const [from, to] = [folderOf(file), folderOf(target)];
    if (from !== to) {
      const edges = folderEdges.get(from) ?? new Set<string>();
      edges.add(to);
      folderEdges.set(from, edges);
    }
  }
}

/** Pairs of folders that reach each other: a cycle runs through both. */
function cyclicFolders(): string[] {
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(folderEdges.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(folderEdges.get(next) ?? []));
    }
    return seen;
  };
  return [...folderEdges.keys()].filter((folder) => reach(folder).has(folder)).sort();
}

const lengths = files.map(lineCount).sort((a, b) => a - b);
const median = lengths[Math.floor(lengths.length / 2)] ?? 0;
const smallSingle = files.filter((file) => lineCount(file) < 30 && importers.get(file)?.size === 1);
const largest = [...files].sort((a, b) => lineCount(b) - lineCount(a))[0] ?? '';
const folders = new Set(files.map((file) => path.dirname(file)).filter((dir) => dir !== srcRoot));
const over400 = files.filter((file) => lineCount(file) > 400);

const rows: Array<[string, string | number]> = [
  ['files', files.length],
  ['folders', folders.size],
  ['lines', lengths.reduce((sum, n) => sum + n, 0)],
  ['median lines per file', median],
  ['files under 30 lines with one importer', smallSingle.length],
  ['files over 400 lines', over400.length],
  ['largest file', `${path.relative(srcRoot, largest)} (${lineCount(largest)})`],
  ['folders in a cycle', cyclicFolders().length],
];
for (const [name, value] of rows) console.log(`${name}: ${value}`);
