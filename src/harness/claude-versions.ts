/**
 * The Claude Code versions the-loop is tested against (docs/design.md §23). The real-client tier
 * runs against each of them, and `doctor` warns when the installed version lies outside the range.
 * Change the range here only: the tier and doctor both read it.
 */
export const CLAUDE_TESTED_VERSIONS = ['2.1.197', '2.1.332'] as const;

/** The oldest and newest tested versions: the supported range. */
export const CLAUDE_OLDEST_TESTED: string = CLAUDE_TESTED_VERSIONS[0];
export const CLAUDE_NEWEST_TESTED: string =
  CLAUDE_TESTED_VERSIONS[CLAUDE_TESTED_VERSIONS.length - 1] ?? '';

/** `2.1.332 (Claude Code)` → `2.1.332`; undefined when the text names no version. */
export function parseClaudeVersion(text: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)\b/.exec(text)?.[1];
}

/** Compares two dotted versions numerically: negative, zero or positive. */
export function compareVersions(left: string, right: string): number {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Where a version lies against the tested range. */
export function testedRangePosition(version: string): 'older' | 'inside' | 'newer' {
  if (compareVersions(version, CLAUDE_OLDEST_TESTED) < 0) return 'older';
  if (compareVersions(version, CLAUDE_NEWEST_TESTED) > 0) return 'newer';
  return 'inside';
}

/** The range as people read it: `2.1.197–2.1.332`. */
export function testedRangeText(): string {
  return `${CLAUDE_OLDEST_TESTED}–${CLAUDE_NEWEST_TESTED}`;
}
