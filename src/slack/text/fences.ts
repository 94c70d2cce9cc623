/**
 * Code fences in Markdown (CommonMark's ``` and ~~~ runs): reading an opening line, knowing the
 * line that closes it, scanning a text's lines for fenced blocks, and the plan for closing and
 * reopening a fence a message is cut inside. One concept, one module.
 */

/** An opening code fence line (CommonMark: up to three spaces, then ``` or ~~~ or longer). */
export interface Fence {
  /** The opening line as written, such as "```ts", so a split part can reopen it the same way. */
  readonly line: string;
  readonly char: '`' | '~';
  readonly length: number;
  /** The language tag and anything after it; "" when there is none. */
  readonly info: string;
}

const openerPattern = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fence a line opens, or undefined when it opens none. */
export function readFence(line: string): Fence | undefined {
  const match = openerPattern.exec(line);
  if (!match) return undefined;
  const run = match[1] ?? '';
  const info = (match[2] ?? '').trim();
  const char = run.startsWith('`') ? '`' : '~';
  // A backtick in the info string would make the line inline code, not a fence.
  if (char === '`' && info.includes('`')) return undefined;
  return { line, char, length: run.length, info };
}

/** Whether a line closes an open fence: the same character, at least as many, nothing after. */
export function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t\r]*$/.exec(line);
  const run = match?.[1];
  return run !== undefined && run.startsWith(fence.char) && run.length >= fence.length;
}

/** What a part adds around a code block split between it and the next part. */
export interface FenceRepair {
  /** `\n` and a closing fence, at the end of the part that stops inside the block. */
  readonly close: string;
  /** The block's own opening line and `\n`, at the start of the next part. */
  readonly reopen: string;
}

/**
 * The repair for a split block, or undefined when the added lines would take more than half the
 * limit: parts that are mostly fence lines help nobody, so such a block is split as plain text.
 */
export function planFenceRepair(fence: Fence, limit: number): FenceRepair | undefined {
  const close = `\n${fence.char.repeat(fence.length)}`;
  const reopen = `${fence.line}\n`;
  return close.length + reopen.length <= limit / 2 ? { close, reopen } : undefined;
}

/** One fenced code block as far as the scan saw it. */
export interface FenceBlock {
  readonly fence: Fence;
  /** Offset of the opening line; 0 for a block continued from an earlier part. */
  readonly start: number;
  /** Offset just after the closing line (or the text's end); undefined when the scan stopped first. */
  end: number | undefined;
  readonly continued: boolean;
}

export interface ScannedLine {
  readonly start: number;
  /** Offset of the line's `\n`, or the text's length for the last line. */
  readonly end: number;
  readonly kind: 'text' | 'opener' | 'code' | 'closer';
  readonly block?: FenceBlock;
}

/**
 * The lines of `text` with their place in code fences, starting inside `open` when a block was
 * split before. It stops once it is past `stopAfter` and has seen `reach` characters of any block
 * still open: that is all a cut decision needs, and it keeps long texts linear.
 */
export function scanFenceLines(
  text: string,
  open: Fence | undefined,
  stopAfter: number,
  reach: number,
): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let block: FenceBlock | undefined = open
    ? { fence: open, start: 0, end: undefined, continued: true }
    : undefined;
  let start = 0;
  for (;;) {
    if (start > stopAfter && (block === undefined || start - block.start > reach)) return lines;
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    if (block) {
      const closed = closesFence(line, block.fence);
      lines.push({ start, end, kind: closed ? 'closer' : 'code', block });
      if (closed) {
        block.end = end;
        block = undefined;
      }
    } else {
      const fence = readFence(line);
      if (fence) block = { fence, start, end: undefined, continued: false };
      lines.push(block ? { start, end, kind: 'opener', block } : { start, end, kind: 'text' });
    }
    if (newline < 0) {
      if (block) block.end = text.length;
      return lines;
    }
    start = newline + 1;
  }
}
