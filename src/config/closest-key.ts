/**
 * The known key a misspelt one most likely meant (`autostart` → `autoStart`, `harnes` →
 * `harness`), or undefined when none is close: at most two edits, ignoring case.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) {
      best = { key: candidate, distance };
    }
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  // Keys are short; a hostile 1 MB key must not cost a quadratic table.
  if (Math.abs(a.length - b.length) > 2 || a.length > 64) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? Infinity;
}
