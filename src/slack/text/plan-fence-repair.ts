import type { Fence } from './read-fence.js';

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
