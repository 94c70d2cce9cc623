import {
  planFenceRepair,
  type Fence,
  scanFenceLines,
  type FenceBlock,
  type ScannedLine,
} from './fences.js';

/** Where one part ends: its text, what is left, and the code block the cut falls inside. */
export interface Cut {
  readonly head: string;
  readonly tail: string;
  readonly inside: FenceBlock | undefined;
}

type Tier = 'outside' | 'oversized-block' | 'block';
type Kind = 'blank' | 'newline' | 'space';
interface Candidate {
  readonly at: number;
  readonly tier: Tier;
  readonly kind: Kind;
  readonly inside: FenceBlock | undefined;
}

// Outside a code block first; then inside a block too long for one part anyway; a block that
// would fit whole in the next part is split only when nothing else is left.
const preference: readonly (readonly [Tier, Kind])[] = [
  ['outside', 'blank'],
  ['outside', 'newline'],
  ['oversized-block', 'newline'],
  ['outside', 'space'],
  ['oversized-block', 'space'],
  ['block', 'newline'],
  ['block', 'space'],
];

const fenceLike = /^[ \t]*(?:`{3}|~{3})/;
const protectedSpans = /<[^<>\n]*>|`[^`\n]+`|&(?:[a-z]+|#[0-9]+);/g;

/** Picks the cut for a part that may hold `budget` characters of `rest` (see splitMessage). */
export function chooseCut(
  rest: string,
  open: Fence | undefined,
  limit: number,
  prefixLength: number,
): Cut {
  const budget = limit - prefixLength;
  const lines = scanFenceLines(rest, open, budget, limit);
  const firstContent = rest.search(/\S/);
  const closing = (block: FenceBlock | undefined): number =>
    block ? (planFenceRepair(block.fence, limit)?.close.length ?? 0) : 0;
  const tierOf = (block: FenceBlock | undefined): Tier => {
    if (block === undefined) return 'outside';
    const continued = block.continued ? prefixLength : 0;
    const oversized = block.end === undefined || block.end - block.start + continued > limit;
    return oversized ? 'oversized-block' : 'block';
  };

  const holdsCode = codeStarts(rest);
  const candidates: Candidate[] = [];
  for (const line of lines) {
    // After an opening or code line a cut falls inside the block; after a closer, outside it.
    const inside = line.kind === 'code' || line.kind === 'opener' ? line.block : undefined;
    const room = budget - closing(inside);
    const at = line.end;
    if (at < rest.length && at > firstContent && at <= room && holdsCode(inside, at)) {
      const blank = !inside && (isBlank(rest, line.start) || isBlank(rest, at + 1));
      candidates.push({ at, tier: tierOf(inside), kind: blank ? 'blank' : 'newline', inside });
    }
    if (line.kind === 'text' || (line.kind === 'code' && holdsCode(inside, line.end))) {
      for (const at of spacesToCutAt(rest, line, Math.min(room, line.end - 1), firstContent)) {
        candidates.push({ at, tier: tierOf(inside), kind: 'space', inside });
      }
    }
  }

  for (const minimum of [budget / 2, 1]) {
    for (const [tier, kind] of preference) {
      if (minimum > 1 && tier === 'block') continue;
      const best = candidates
        .filter((c) => c.tier === tier && c.kind === kind && c.at >= minimum)
        .reduce<Candidate | undefined>(
          (a, c) => (a === undefined || c.at > a.at ? c : a),
          undefined,
        );
      if (best) return cutAt(rest, best);
    }
  }
  return hardCut(rest, lines, budget, closing, firstContent);
}

/**
 * A cut inside a block must leave some code before it, or the part would end in an empty block.
 * Returns where the first code character of each block is, computed once per block.
 */
function codeStarts(rest: string): (block: FenceBlock | undefined, at: number) => boolean {
  const starts = new Map<FenceBlock, number>();
  return (block, at) => {
    if (block === undefined) return true;
    let start = starts.get(block);
    if (start === undefined) {
      const from = block.continued ? 0 : rest.indexOf('\n', block.start);
      const content = /\S/g;
      content.lastIndex = Math.max(from, 0);
      start = from < 0 ? Infinity : (content.exec(rest)?.index ?? Infinity);
      starts.set(block, start);
    }
    return start < at;
  };
}

function isBlank(text: string, from: number): boolean {
  return /^[ \t]*(?:\n|$)/.test(text.slice(from, from + 200));
}

function spacesToCutAt(
  rest: string,
  line: ScannedLine,
  last: number,
  firstContent: number,
): number[] {
  const text = rest.slice(line.start, line.end);
  const spans = [...text.matchAll(protectedSpans)].map((m) => [m.index, m.index + m[0].length]);
  const indent = /^[ \t]*/.exec(text)?.[0].length ?? 0;
  const found: number[] = [];
  for (let at = line.start + indent; at <= last; at += 1) {
    const char = rest[at];
    if ((char !== ' ' && char !== '\t') || at <= firstContent) continue;
    const offset = at - line.start;
    if (spans.some(([from = 0, to = 0]) => from < offset && offset < to)) continue;
    // A piece of a line must not start to look like a fence line of its own.
    if (fenceLike.test(text.slice(offset + 1)) || fenceLike.test(text.slice(0, offset))) continue;
    found.push(at);
  }
  return found;
}

function cutAt(rest: string, candidate: Candidate): Cut {
  const after = rest.slice(candidate.at + 1);
  const tail = candidate.kind === 'space' ? after.replace(/^[ \t]+/, '') : after;
  return {
    head: rest.slice(0, candidate.at).trimEnd(),
    tail: tail.replace(/^(?:[ \t]*\n)+/, ''),
    inside: candidate.inside,
  };
}

/** No whitespace to cut at: cut inside a word, but not inside a link, entity or surrogate pair. */
function hardCut(
  rest: string,
  lines: readonly ScannedLine[],
  budget: number,
  closing: (block: FenceBlock | undefined) => number,
  firstContent: number,
): Cut {
  const lineAt = (at: number) => lines.find((l) => l.start <= at && at <= l.end);
  let at = budget;
  for (let line = lineAt(at - 1); line; line = lineAt(at - 1)) {
    // A fence line is never cut: the part stops before it, inside the block it closes (if any).
    const fenceLine = line.kind === 'opener' || line.kind === 'closer';
    const room = line.kind === 'code' ? budget - closing(line.block) : budget;
    const next = fenceLine ? line.start - 1 : Math.min(at, room);
    if (next === at || next <= Math.max(0, firstContent)) break;
    at = next;
  }
  const cutLine = lineAt(at - 1);
  if (cutLine) {
    // The rest of the line must not begin like a fence, or the next part would open a block.
    const fits = (q: number) => !splitsPair(rest, q) && !fenceLike.test(rest.slice(q, cutLine.end));
    let settled = at;
    while (settled - 1 > cutLine.start && !fits(settled)) settled -= 1;
    if (fits(settled)) at = settled;
    const text = rest.slice(cutLine.start, cutLine.end);
    for (const match of text.matchAll(protectedSpans)) {
      const from = cutLine.start + match.index;
      const movable = from > cutLine.start && from > firstContent && fits(from);
      if (movable && from < at && at < from + match[0].length) {
        at = from;
      }
    }
  }
  if (splitsPair(rest, at) && at > 1) at -= 1;
  const last = lineAt(at - 1);
  const inside =
    last?.kind === 'code' && at <= budget - closing(last.block) ? last.block : undefined;
  return { head: rest.slice(0, at), tail: rest.slice(at), inside };
}

function splitsPair(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
