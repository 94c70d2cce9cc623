import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Everything that may cite the design: code, tests, benchmarks, scripts, schemas, docs. */
const roots = ['src', 'test', 'bench', 'bin', 'schemas', 'docs'];
const topLevelFiles = ['README.md', 'vitest.config.ts', 'vitest.real.config.ts'];
/** These two name the old form on purpose: to read it, and to forbid it. */
const exempt = new Set([
  'test/unit/architecture/design-citations.test.ts',
  'test/unit/architecture/no-design-citations.test.ts',
]);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    // Pictures and other binary files cite nothing.
    return /\.(png|jpe?g|gif|ico)$/.test(entry.name) ? [] : [full];
  });
}

describe('citations of the design', () => {
  it('point at docs/design.md, which is in the repository, never at DESIGN.md, which is not', () => {
    const stale = [
      ...roots.flatMap((root) => files(path.join(repoRoot, root))),
      ...topLevelFiles.map((file) => path.join(repoRoot, file)),
    ]
      .filter((file) => !exempt.has(path.relative(repoRoot, file).split(path.sep).join('/')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            /\bDESIGN(?:\.md\b|\s*§|\s*$|'s\b)/.test(line)
              ? [`${path.relative(repoRoot, file)}:${index + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(stale).toEqual([]);
  });
});
