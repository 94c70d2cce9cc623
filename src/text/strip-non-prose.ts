/**
 * Blanks what must not count when a comment is read for keywords or the address token (docs/design.md §7.2,
 * §7.3): fenced code blocks, quoted lines, HTML comments and inline code spans. A code span that
 * holds nothing but an address token is kept, because §7.3 lets `` `instance:alpha` `` address.
 *
 * Every removed character becomes a space (line breaks stay), so the result has the same length
 * and line structure as the input and no two words are joined where something was cut out.
 *
 * This follows CommonMark closely enough for the cases people write. An unclosed fence or HTML
 * comment runs to the end of the text, so nothing hidden can start a session.
 */
export function stripNonProse(body: string): string {
  const removed = new Uint8Array(body.length);
  const blank = (from: number, to: number): void => void removed.fill(1, from, to);
  const paragraphEnd = memoParagraphEnd(body);

  let lineStart = 0;
  while (lineStart < body.length) {
    const lineEnd = endOfLine(body, lineStart);
    const line = body.slice(lineStart, lineEnd);
    const fence = fenceOpening(line);
    if (fence) {
      const end = fenceEnd(body, lineEnd, fence);
      blank(lineStart, end);
      lineStart = end + 1;
    } else if (quotedLine.test(line)) {
      blank(lineStart, lineEnd);
      lineStart = lineEnd + 1;
    } else {
      lineStart = scanInline(body, lineStart, { blank, paragraphEnd }) + 1;
    }
  }

  let out = '';
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index] ?? '';
    out += removed[index] === 1 && char !== '\n' ? ' ' : char;
  }
  return out;
}

interface InlineHelpers {
  readonly blank: (from: number, to: number) => void;
  /** Where the paragraph holding the line that ends at `lineEnd` ends. */
  readonly paragraphEnd: (lineEnd: number) => number;
}

interface Fence {
  readonly char: '`' | '~';
  readonly length: number;
}

const fenceLine = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const quotedLine = /^[ \t]*>/;
const blankLine = /^[ \t]*\r?$/;
const addressPrefix = /^instance:/i;
/** What parseAddress reads a name from, so a span is kept exactly when it holds one token. */
const nameRun = /^[\p{L}\p{N}\p{M}_-]*$/u;
const asciiPunctuation = /[!-/:-@[-`{-~]/;

function endOfLine(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

function fenceOpening(line: string): Fence | undefined {
  const match = fenceLine.exec(line);
  const run = match?.[1];
  if (!run) return undefined;
  const char = run[0] === '`' ? '`' : '~';
  // A backtick in the info string means the line is inline code, not a fence.
  if (char === '`' && (match[2] ?? '').includes('`')) return undefined;
  return { char, length: run.length };
}

/** The end of the closing fence's line, or of the text when the fence is never closed. */
function fenceEnd(text: string, openingEnd: number, fence: Fence): number {
  const closing = new RegExp(`^ {0,3}${fence.char}{${fence.length},}[ \\t]*\\r?$`);
  let lineStart = openingEnd + 1;
  while (lineStart < text.length) {
    const lineEnd = endOfLine(text, lineStart);
    if (closing.test(text.slice(lineStart, lineEnd))) return lineEnd;
    lineStart = lineEnd + 1;
  }
  return text.length;
}

/**
 * Reads prose from `from` to the end of its line, blanking code spans and HTML comments; either
 * may run over several lines, and then the scan ends on the line where it closed. Returns the end
 * of the last line read.
 */
function scanInline(text: string, from: number, helpers: InlineHelpers): number {
  const { blank, paragraphEnd } = helpers;
  let index = from;
  let lineEnd = endOfLine(text, from);
  let limit = -1;
  // Backtick run lengths known to have no closer before `limit`: later openers of the same length
  // need not search again, which keeps a comment full of stray backticks from costing n².
  const unmatched = new Set<number>();
  while (index < lineEnd) {
    const char = text[index];
    if (char === '\\' && asciiPunctuation.test(text[index + 1] ?? '')) {
      index += 2;
    } else if (char === '`') {
      const run = runLength(text, index, '`');
      const end = paragraphEnd(lineEnd);
      if (end !== limit) {
        limit = end;
        unmatched.clear();
      }
      const close = unmatched.has(run) ? -1 : closingBackticks(text, index + run, run, limit);
      if (close === -1) {
        unmatched.add(run);
        index += run;
        continue;
      }
      const content = text.slice(index + run, close);
      if (isAddressSpan(content)) {
        blank(index, index + run);
        blank(close, close + run);
      } else {
        blank(index, close + run);
      }
      index = close + run;
      lineEnd = Math.max(lineEnd, endOfLine(text, index));
    } else if (text.startsWith('<!--', index)) {
      const close = text.indexOf('-->', index + 4);
      const end = close === -1 ? text.length : close + 3;
      blank(index, end);
      index = end;
      lineEnd = Math.max(lineEnd, endOfLine(text, index));
    } else {
      index += 1;
    }
  }
  return lineEnd;
}

/**
 * `` `instance:…` `` is kept even when the name is malformed: dropping it would leave the comment
 * unaddressed, which an `open` instance would take; keeping it makes the comment refused.
 */
function isAddressSpan(content: string): boolean {
  const token = content.trim();
  return addressPrefix.test(token) && nameRun.test(token.slice('instance:'.length));
}

function runLength(text: string, from: number, char: string): number {
  let end = from;
  while (text[end] === char) end += 1;
  return end - from;
}

/** Where a run of exactly `length` backticks starts before `limit`, or -1. */
function closingBackticks(text: string, from: number, length: number, limit: number): number {
  let index = text.indexOf('`', from);
  while (index !== -1 && index < limit) {
    const run = runLength(text, index, '`');
    if (run === length) return index;
    index = text.indexOf('`', index + run);
  }
  return -1;
}

/**
 * A code span cannot cross a blank line, a fence or a quoted line: the paragraph ends there. Every
 * line of a paragraph has the same answer, so the last one is remembered: a long paragraph full of
 * backticks is then walked once, not once per backtick.
 */
function memoParagraphEnd(text: string): (lineEnd: number) => number {
  let known = { from: -1, end: -1 };
  return (lineEnd) => {
    if (lineEnd >= known.from && lineEnd < known.end) return known.end;
    known = { from: lineEnd, end: paragraphEnd(text, lineEnd) };
    return known.end;
  };
}

function paragraphEnd(text: string, lineEnd: number): number {
  let lineStart = lineEnd + 1;
  while (lineStart < text.length) {
    const end = endOfLine(text, lineStart);
    const line = text.slice(lineStart, end);
    if (blankLine.test(line) || quotedLine.test(line) || fenceOpening(line)) return lineStart;
    lineStart = end + 1;
  }
  return text.length;
}
