import { closesFence } from './closes-fence.js';
import { readFence, type Fence } from './read-fence.js';

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
