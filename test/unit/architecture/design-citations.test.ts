import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const docsRoot = path.join(repoRoot, 'docs');
const designPath = path.join(docsRoot, 'design.md');

/** Where comments, descriptions and docs cite the design by section. */
const citingRoots = ['src', 'test', 'bench', 'bin', 'schemas', 'docs'];
const citingExtensions = /\.(ts|mts|mjs|js|json|ya?ml|md)$/;

function citingFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return citingFiles(full);
    // bin/ holds extensionless scripts (`bin/the-loop-hook`) that cite sections too.
    return citingExtensions.test(entry.name) || dir.endsWith(`${path.sep}bin`) ? [full] : [];
  });
}

/**
 * Every section a text cites: "DESIGN §7.4", "docs/design.md §18", a citation wrapped onto the next
 * comment line ("(DESIGN\n * §7.4)"), and the sections listed after one ("DESIGN §8 / §17").
 */
function citedSections(text: string): string[] {
  const citation =
    /(?:\bDESIGN\b|design\.md\)?)\s*(?:\*\s*)?(§\d+(?:\.\d+)?(?:\s*(?:,|\/|and)\s*§\d+(?:\.\d+)?)*)/g;
  return [...text.matchAll(citation)].flatMap((match) =>
    [...(match[1] ?? '').matchAll(/§(\d+(?:\.\d+)?)/g)].map((section) => section[1] ?? ''),
  );
}

/** The numbered sections of docs/design.md: `## 7. GitHub and instances`, `### 7.4 The scope…`. */
function designSections(): Set<string> {
  const headings = readFileSync(designPath, 'utf8').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm);
  return new Set([...headings].map((heading) => heading[1] ?? ''));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

describe('docs/design.md, the design the code cites', () => {
  it('keeps the specification’s section numbers §1–§23, in order', () => {
    const sections = [...designSections()];
    const top = sections.filter((section) => !section.includes('.'));
    expect(top).toEqual(Array.from({ length: 23 }, (_, index) => String(index + 1)));
    expect(sections.filter((section) => section.includes('.'))).toEqual([
      '3.1',
      '3.2',
      '3.3',
      '3.4',
      '3.5',
      '3.6',
      '7.1',
      '7.2',
      '7.3',
      '7.4',
    ]);
  });

  it('has every section that a file in the repository cites', () => {
    const sections = designSections();
    const missing = citingRoots
      .flatMap((root) => citingFiles(path.join(repoRoot, root)))
      .flatMap((file) =>
        citedSections(readFileSync(file, 'utf8'))
          .filter((section) => !sections.has(section))
          .map((section) => `${path.relative(repoRoot, file)} cites §${section}`),
      );
    expect(missing).toEqual([]);
  });

  it('reads the citation forms the code uses', () => {
    expect(citedSections('(DESIGN §7.4) and docs/design.md §18')).toEqual(['7.4', '18']);
    expect(citedSections('is true (DESIGN\n * §7.1). The poller')).toEqual(['7.1']);
    expect(citedSections('DESIGN §8 / §17: a session')).toEqual(['8', '17']);
    expect(citedSections('RFC 9110 §10.2.3')).toEqual([]);
  });

  it('links only to docs and headings that exist', () => {
    const text = readFileSync(designPath, 'utf8');
    const broken = [...text.matchAll(/\]\(([^)#\s]+\.md)(?:#([^)\s]+))?\)/g)].flatMap((link) => {
      const target = path.join(docsRoot, link[1] ?? '');
      if (!existsSync(target)) return [`${link[0]}: no such file`];
      if (link[2] === undefined) return [];
      const anchors = [...readFileSync(target, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((heading) =>
        anchorOf(heading[1] ?? ''),
      );
      return anchors.includes(link[2]) ? [] : [`${link[0]}: no heading #${link[2]}`];
    });
    expect(broken).toEqual([]);
  });
});
